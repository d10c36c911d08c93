import { describe, expect, it } from 'vitest';
import { urlsOfBatchFile } from '../../../server/api/cli/tabhive/batch-command';

describe('urlsOfBatchFile', () => {
  it('reads one URL a line, skipping blank lines and comments, keeping duplicates', () => {
    expect(urlsOfBatchFile('# docs\nhttps://a.test/\r\n\n  https://b.test/x  \nhttps://a.test/\n')).toEqual([
      'https://a.test/',
      'https://b.test/x',
      'https://a.test/',
    ]);
  });
});
