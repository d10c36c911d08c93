import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { removeRepeatedLabels } from '../../../shared/html/repeated-labels';

const textOf = (html: string) => {
  const { body } = parseHtml(html);
  removeRepeatedLabels(body);
  return body.textContent?.replace(/\s+/g, ' ').trim() ?? '';
};

const comment = (n: number, author: string, bar: string) =>
  `<div class="comment"><a href="/u/${author}">${author}</a><p>Comment ${n} has a thought of its own, long enough to read as a comment of the thread.</p><ul class="bar">${bar}</ul></div>`;

describe('removeRepeatedLabels', () => {
  it('removes the action items every comment repeats, even where the bars differ as wholes', () => {
    const bar = '<li><a href="/p">permalink</a></li><li>save</li><li>report</li><li>reply</li>';
    const withParent =
      '<li><a href="/p">permalink</a></li><li>save</li><li><a href="/up">parent</a></li><li>report</li><li>reply</li>';
    const authors = ['ada', 'bo', 'cy', 'di'];
    const text = textOf(
      `<div>${authors.map((author, n) => comment(n, author, n % 2 === 0 ? bar : withParent)).join('')}</div>`,
    );
    for (const label of ['permalink', 'save', 'report', 'reply'])
      expect(text).not.toMatch(new RegExp(`\\b${label}\\b`));
    expect(text).toContain('Comment 0 has a thought');
    expect(text).toContain('Comment 3 has a thought');
    expect(text).toContain('ada');
  });

  it("keeps a poster's name found on fewer than three in four of the thread's entries", () => {
    const bar = '<li>reply</li>';
    const authors = ['ada', 'bo', 'ada', 'cy', 'ada', 'di'];
    const text = textOf(`<div>${authors.map((author, n) => comment(n, author, bar)).join('')}</div>`);
    expect(text.match(/ada/g)?.length).toBe(3);
    expect(text).not.toMatch(/\breply\b/);
  });

  it('removes badges and buttons repeated on the items of a grid, keeping the items', () => {
    const item = (name: string) =>
      `<li class="card"><a href="/p/${name}">${name} wool runner, a light shoe for every day</a><span>Quick view</span><button>Compare</button></li>`;
    const text = textOf(`<ul>${['Ash', 'Birch', 'Cedar', 'Dune', 'Elm'].map(item).join('')}</ul>`);
    expect(text).not.toContain('Quick view');
    expect(text).not.toContain('Compare');
    expect(text).toContain('Cedar wool runner');
  });

  it('keeps repeated table cells, code, definition lists and headings', () => {
    const html =
      '<table><tr><th>Size</th><td>Yes</td></tr><tr><th>Weight</th><td>Yes</td></tr><tr><th>Colour</th><td>Yes</td></tr></table>' +
      '<pre><code>ok\nok\nok</code></pre><h3>Details</h3><p>One</p><h3>Details</h3><p>Two</p><h3>Details</h3><p>Three</p>';
    const text = textOf(html);
    expect(text.match(/Yes/g)?.length).toBe(3);
    expect(text.match(/Details/g)?.length).toBe(3);
    expect(text).toContain('ok ok ok');
  });
});
