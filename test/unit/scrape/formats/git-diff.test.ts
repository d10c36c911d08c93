import { describe, expect, it } from 'vitest';
import { compareJson } from '../../../../server/scrape/enrich/formats/change-tracking-format';
import { gitDiff } from '../../../../server/scrape/enrich/formats/git-diff';

describe('gitDiff', () => {
  it('writes a git-style unified diff and the same hunks as data', () => {
    const previous = '# Prices\n\nMug: 4 EUR\n\nTeapot: 20 EUR\n';
    const current = '# Prices\n\nMug: 5 EUR\n\nTeapot: 20 EUR\n';
    const diff = gitDiff(previous, current);
    expect(diff.text).toBe(
      [
        'diff --git a/page.md b/page.md',
        '--- a/page.md',
        '+++ b/page.md',
        '@@ -1,5 +1,5 @@',
        ' # Prices',
        ' ',
        '-Mug: 4 EUR',
        '+Mug: 5 EUR',
        ' ',
        ' Teapot: 20 EUR',
        '',
      ].join('\n'),
    );
    const [file] = diff.json.files;
    expect(file).toMatchObject({ from: 'page.md', to: 'page.md', additions: 1, deletions: 1 });
    expect(file?.chunks[0]?.content).toBe('@@ -1,5 +1,5 @@');
    expect(file?.chunks[0]?.changes).toEqual([
      { type: 'normal', normal: true, ln1: 1, ln2: 1, content: ' # Prices' },
      { type: 'normal', normal: true, ln1: 2, ln2: 2, content: ' ' },
      { type: 'del', del: true, ln: 3, content: '-Mug: 4 EUR' },
      { type: 'add', add: true, ln: 3, content: '+Mug: 5 EUR' },
      { type: 'normal', normal: true, ln1: 4, ln2: 4, content: ' ' },
      { type: 'normal', normal: true, ln1: 5, ln2: 5, content: ' Teapot: 20 EUR' },
    ]);
  });

  it('has no files when nothing changed', () => {
    expect(gitDiff('same\n', 'same\n').json.files).toEqual([]);
  });
});

describe('compareJson', () => {
  it('reports previous and current values of the keys that changed', () => {
    expect(compareJson({ price: 4, name: 'Mug', gone: 1 }, { price: 5, name: 'Mug', added: true })).toEqual({
      price: { previous: 4, current: 5 },
      gone: { previous: 1, current: null },
      added: { previous: null, current: true },
    });
    expect(compareJson({ a: [1] }, { a: [1] })).toEqual({});
  });
});
