import { describe, expect, it } from 'vitest';
import { toMarkdown } from '../../../shared/markdown/to-markdown';

const md = (html: string) => toMarkdown(html, { removeBase64Images: true });

describe('GFM tables', () => {
  it('converts a table with a header row', () => {
    const html = `<table>
      <thead><tr><th>Name</th><th align="right">Qty</th></tr></thead>
      <tbody><tr><td>Apples</td><td>3</td></tr><tr><td>Pears</td><td>10</td></tr></tbody>
    </table>`;
    expect(md(html)).toBe('| Name | Qty |\n| --- | --: |\n| Apples | 3 |\n| Pears | 10 |');
  });

  it('takes the first row as header when the table has no <th>', () => {
    expect(md('<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toBe(
      '| a | b |\n| --- | --- |\n| c | d |',
    );
  });

  it('escapes pipes and flattens line breaks inside cells', () => {
    expect(
      md(
        '<table><tr><th>Expr</th><th>Note</th></tr><tr><td><code>a | b</code></td><td><p>one</p><p>two<br>three</p></td></tr></table>',
      ),
    ).toBe('| Expr | Note |\n| --- | --- |\n| `a \\| b` | one two three |');
  });

  it('pads the header to the widest row and expands colspan', () => {
    const html = '<table><tr><th colspan="2">Both</th></tr><tr><td>a</td><td>b</td><td>c</td></tr></table>';
    expect(md(html)).toBe('| Both |  |  |\n| --- | --- | --- |\n| a | b | c |');
  });

  it('keeps empty cells and skips empty rows', () => {
    expect(
      md('<table><tr></tr><tr><th>A</th><th>B</th></tr><tr></tr><tr><td></td><td>x</td></tr></table>'),
    ).toBe('| A | B |\n| --- | --- |\n|  | x |');
  });

  it('puts the caption above the table', () => {
    expect(
      md(
        '<table><caption>Prices</caption><tr><th>Item</th><th>Cost</th></tr><tr><td>Tea</td><td>2</td></tr></table>',
      ),
    ).toBe('Prices\n\n| Item | Cost |\n| --- | --- |\n| Tea | 2 |');
  });

  it('unwraps layout tables into ordinary blocks', () => {
    expect(
      md('<table role="presentation"><tr><td><h2>Title</h2></td><td><p>Text</p></td></tr></table>'),
    ).toBe('## Title\n\nText');
    expect(md('<table><tr><td><p>Only column</p></td></tr><tr><td><p>Second row</p></td></tr></table>')).toBe(
      'Only column\n\nSecond row',
    );
    expect(
      md(
        '<table><tr><td><table><tr><th>K</th><th>V</th></tr><tr><td>a</td><td>1</td></tr></table></td><td>Side</td></tr></table>',
      ),
    ).toBe('| K | V |\n| --- | --- |\n| a | 1 |\n\nSide');
  });
});
