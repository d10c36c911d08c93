import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { revealStreamedContent } from '../../../shared/html/reveal-streamed-content';

describe('revealStreamedContent', () => {
  it('swaps a Suspense boundary’s fallback for the content streamed into a hidden div', () => {
    const document = parseHtml(
      '<body><main><h1>Desk</h1><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--><p>After</p></main>' +
        '<div hidden id="S:0"><p>Height 65–130 cm</p><p>Oak top</p></div>' +
        '<script>$RC("B:0","S:0")</script></body>',
    );
    revealStreamedContent(document);
    const main = document.querySelector('main') as Element;
    expect(main.textContent).toBe('DeskHeight 65–130 cmOak topAfter');
    expect(document.querySelector('[hidden]')).toBeNull();
  });

  it('keeps every sibling after the template when the boundary-closing comment was stripped', () => {
    // A saved snapshot without comments: where the fallback ends is unknown, and the rest of the
    // page after the template must not go with it (issue 35).
    const document = parseHtml(
      '<body><main><h1>Desk</h1><template id="B:0"></template><p>Loading…</p><p>Price 120 EUR</p>' +
        '<p>Ships in two days</p></main><div hidden id="S:0"><p>Height 65–130 cm</p></div>' +
        '<script>$RC("B:0","S:0")</script></body>',
    );
    revealStreamedContent(document);
    const main = document.querySelector('main') as Element;
    expect(main.textContent).toBe('DeskHeight 65–130 cmLoading…Price 120 EURShips in two days');
  });

  it('follows the script’s pairing when the numbers differ, and fills segment placeholders', () => {
    const document = parseHtml(
      '<body><div id="a"><template id="P:3"></template></div><div hidden id="S:7"><p>Reviews</p></div>' +
        '<script>$RS("S:7","P:3")</script></body>',
    );
    revealStreamedContent(document);
    expect(document.querySelector('#a')?.innerHTML).toBe('<p>Reviews</p>');
  });

  it('shows a parked container in place when its placeholder is missing', () => {
    const document = parseHtml('<body><div hidden id="S:1"><p>Specs</p></div></body>');
    revealStreamedContent(document);
    expect(document.body.innerHTML).toBe('<div id="S:1"><p>Specs</p></div>');
  });

  it('leaves other hidden elements alone', () => {
    const document = parseHtml('<body><div hidden id="menu"><p>Menu</p></div></body>');
    revealStreamedContent(document);
    expect(document.querySelector('#menu')?.hasAttribute('hidden')).toBe(true);
  });
});
