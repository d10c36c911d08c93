import { describe, expect, it } from 'vitest';
import { dataUrlBytes, renderDocument } from '../../../server/api/cli/tabhive/render-document';

const document = {
  markdown: '# Title',
  html: '<h1>Title</h1>',
  links: ['https://a.test/', 'https://b.test/'],
  json: { price: 3 },
  metadata: { sourceURL: 'https://a.test/', statusCode: 200 },
};

describe('renderDocument', () => {
  it('prints the Markdown by default', () => {
    expect(renderDocument(document, undefined)).toBe('# Title');
  });

  it('prints the one format asked for as it is, lists one item a line, objects as JSON', () => {
    expect(renderDocument(document, ['html'])).toBe('<h1>Title</h1>');
    expect(renderDocument(document, ['links'])).toBe('https://a.test/\nhttps://b.test/');
    expect(JSON.parse(renderDocument(document, ['json']))).toEqual({ price: 3 });
    expect(renderDocument(document, ['summary'])).toBe('');
  });

  it('prints the whole document as JSON for several formats', () => {
    expect(JSON.parse(renderDocument(document, ['markdown', 'links']))).toEqual(document);
  });
});

describe('dataUrlBytes', () => {
  it('decodes a base64 data URL and leaves anything else alone', () => {
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.from('PNG!').toString('base64')}`)).toEqual(
      Buffer.from('PNG!'),
    );
    expect(dataUrlBytes('https://example.test/shot.png')).toBeUndefined();
    expect(dataUrlBytes('# Markdown')).toBeUndefined();
  });
});
