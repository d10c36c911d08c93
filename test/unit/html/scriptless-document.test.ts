import { describe, expect, it } from 'vitest';
import { deriveFormats } from '../../../shared/formats/derive-formats';
import { scriptlessDocument } from '../../../shared/html/scriptless-document';

const posts = [1, 2, 3]
  .map(
    (n) =>
      `<div class="post"><p>Reply number ${n}: ${'a useful sentence about winter batteries '.repeat(5)}</p></div>`,
  )
  .join('');

describe('scriptlessDocument', () => {
  it('unwraps noscript content worth reading', () => {
    const document = scriptlessDocument(
      `<body><div id="app"></div><noscript><div id="main-outlet">${posts}</div></noscript></body>`,
    );
    expect(document?.querySelector('#main-outlet .post')).not.toBeNull();
    expect(document?.querySelector('noscript')).toBeNull();
  });

  it('gives nothing for a "turn on JavaScript" note or a page without noscript', () => {
    expect(scriptlessDocument('<body><noscript>Please enable JavaScript.</noscript></body>')).toBeUndefined();
    expect(scriptlessDocument('<body><p>Text</p></body>')).toBeUndefined();
  });

  it('is what derivation falls back to when the page shows next to nothing', () => {
    const html = `<html><head><title>Batteries</title></head><body><div id="app">Loading…</div><noscript>${posts}</noscript></body></html>`;
    const rendered = '<html><body><div id="app">Loading…</div></body></html>';
    const { markdown } = deriveFormats(
      {
        url: 'https://example.test/t/1',
        statusCode: 200,
        contentType: 'text/html',
        rawHtml: html,
        renderedHtml: rendered,
      },
      { formats: new Set(['markdown']), onlyMainContent: true, removeBase64Images: true },
    );
    expect(markdown).toContain('Reply number 1');
    expect(markdown).toContain('Reply number 3');
  });

  it('is not used when the page has content of its own', () => {
    const html = `<html><body><p>${'Plenty of text of its own. '.repeat(10)}</p><noscript>${posts}</noscript></body></html>`;
    const { markdown } = deriveFormats(
      {
        url: 'https://example.test/',
        statusCode: 200,
        contentType: 'text/html',
        rawHtml: html,
        renderedHtml: html,
      },
      { formats: new Set(['markdown']), onlyMainContent: true, removeBase64Images: true },
    );
    expect(markdown).not.toContain('Reply number');
  });
});
