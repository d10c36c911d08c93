import { describe, expect, it } from 'vitest';
import { collapsedTextLength } from '../../../shared/html/collapsed-text-length';
import { parseHtml } from '../../../shared/html/parse-html';

/** What the count stands for: the text with whitespace runs collapsed and trimmed, as a string. */
const expected = (node: Node) => (node.textContent ?? '').replace(/\s+/g, ' ').trim().length;

describe('collapsedTextLength', () => {
  it.each([
    ['an empty body', ''],
    ['whitespace only', '  \n\t <p> \u00a0 </p>\r\n'],
    ['one word', '<p>word</p>'],
    ['runs at the ends and inside', '\n  <p>  two   words </p>\n\n<div>\tand\u2003more\u00a0</div>  '],
    ['text split over elements', '<p>one<b>two</b> <i>three</i></p><p>four</p>'],
    [
      'every kind of JavaScript whitespace',
      'a\u000bb\u000cc\u1680d\u200ae\u2028f\u2029g\u202fh\u205fi\u3000j\ufeffk',
    ],
    ['characters that look like space but are not', 'a\u200bb\u0085c\u180ed'],
    ['surrogate pairs', '<p>emoji 😀 and 𝔸</p>'],
    ['nested lists', '<ul><li> one </li><li>two<ul><li> three</li></ul></li></ul>'],
  ])('counts %s as the collapsed string would', (_, body) => {
    const document = parseHtml(`<html><body>${body}</body></html>`);
    expect(collapsedTextLength(document.body)).toBe(expected(document.body));
    for (const element of document.body.querySelectorAll('*'))
      expect(collapsedTextLength(element)).toBe(expected(element));
  });

  it('counts a node outside any tree', () => {
    const document = parseHtml('<html><body></body></html>');
    const detached = document.createElement('div');
    detached.innerHTML = '<span> a  b </span> c ';
    expect(collapsedTextLength(detached)).toBe(5);
  });
});
