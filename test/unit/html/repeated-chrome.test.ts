import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { removeRepeatedChrome } from '../../../shared/html/repeated-chrome';

const post = (n: number, actions: string, extra = '') =>
  `<div class="post"><p>Post ${n} says something of its own, long enough to be a post of the thread and not a tag.</p>${extra}<div class="actions">${actions}</div></div>`;

const textOf = (html: string) => {
  const { body } = parseHtml(html);
  removeRepeatedChrome(body);
  return body.textContent?.replace(/\s+/g, ' ').trim() ?? '';
};

describe('removeRepeatedChrome', () => {
  it('removes an action bar repeated in three or more posts, keeping the posts', () => {
    const bar =
      '<a href="/share">Share</a> · <a href="/edit">Improve this answer</a> · <button>Follow</button>';
    const text = textOf(`<div>${[1, 2, 3].map((n) => post(n, bar)).join('')}</div>`);
    expect(text).not.toContain('Improve this answer');
    expect(text).toContain('Post 1 says');
    expect(text).toContain('Post 3 says');
  });

  it('keeps text found in only two posts', () => {
    const bar = '<a href="/quote">Reply with quote</a>';
    const html = `<div>${post(1, bar)}${post(2, bar)}${post(3, '<a href="/x">Report</a>')}</div>`;
    expect(textOf(html)).toContain('Reply with quote');
  });

  it('keeps repeated table cells, code, prices and sentences that are not links', () => {
    const extra =
      '<table><tr><th>Type</th></tr><tr><td>String</td></tr></table><pre>npm install</pre>' +
      '<span>$30.00</span><p>Not valid with other offers or coupons, some restrictions apply.</p>';
    const html = `<div>${[1, 2, 3].map((n) => post(n, `<a href="/r${n}">Reply ${n}</a>`, extra)).join('')}</div>`;
    const text = textOf(html);
    for (const kept of ['String', 'npm install', '$30.00', 'some restrictions apply'])
      expect(text).toContain(kept);
  });

  it('leaves a page without a run of alike entries alone', () => {
    const html =
      '<article><p>One article with a paragraph of its own that is long enough to count.</p><a href="/s">Share</a></article>';
    expect(textOf(html)).toContain('Share');
  });
});
