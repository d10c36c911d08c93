import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { hidingSelectors, removeHidden } from '../../../server/scrape/derive/fetched-page/remove-hidden';

const bodyAfter = (html: string) => {
  const document = parseHtml(html);
  removeHidden(document, { cookieBanners: true });
  return document.body.innerHTML;
};

describe('removeHidden', () => {
  it("never empties a page: when a page's own rule hides a wrapper around everything, only scripts and styles go", () => {
    const page =
      '<head><style>.site { display: none }</style></head><body><div class="site"><h1>Careers</h1>' +
      '<p>We place accountants and engineers with firms across the country.</p>' +
      '<script>reveal()</script></div><p hidden>Loading</p></body>';
    const after = bodyAfter(page);
    expect(after).toContain('We place accountants and engineers');
    expect(after).toContain('<p hidden>Loading</p>');
    expect(after).not.toContain('<script>');
  });

  it('still removes hidden parts when the page keeps most of its text', () => {
    const after = bodyAfter(
      '<head><style>.menu { display: none }</style></head><body><nav class="menu">Menu</nav>' +
        '<article><p>The article a reader came for, with enough text to be the page.</p></article></body>',
    );
    expect(after).not.toContain('Menu');
    expect(after).toContain('The article a reader came for');
  });

  it('leaves out what the user-agent stylesheet, hidden and inline styles hide', () => {
    expect(
      bodyAfter(
        '<body><p>seen</p><p hidden>gone</p><div style="color: red; display: none">gone</div>' +
          '<span style="visibility:hidden !important">gone</span><template><p>gone</p></template>' +
          '<noscript>gone</noscript><input type="hidden" value="x"><script>1</script></body>',
      ),
    ).toBe('<p>seen</p>');
  });

  it("keeps folded tab and accordion panels: their text is the page's, only not displayed yet", () => {
    expect(
      bodyAfter(
        '<head><style>.closed { display: none }</style></head><body>' +
          '<div role="tabpanel" hidden>specs</div><div class="tab-pane closed">care</div>' +
          '<div class="accordion"><div class="accordion-content" style="display:none">answer</div></div>' +
          '<div class="promo closed">gone</div><p hidden>gone</p></body>',
      ),
    ).toBe(
      '<div role="tabpanel" hidden>specs</div><div class="tab-pane closed">care</div>' +
        '<div class="accordion"><div class="accordion-content" style="display:none">answer</div></div>',
    );
  });

  it('leaves out the consent banners a browser task hides under blockAds', () => {
    expect(bodyAfter('<body><div id="onetrust-consent-sdk">We use cookies</div><p>seen</p></body>')).toBe(
      '<p>seen</p>',
    );
  });

  it("leaves out what the page's own top-level style rules hide, and nothing inside @media", () => {
    expect(
      bodyAfter(
        '<head><style>.menu, #popup { display:none } p { color: red } a:hover { display: none }' +
          '@media (max-width: 10px) { .wide { display: none } }</style></head>' +
          '<body><nav class="menu">gone</nav><div id="popup">gone</div><p class="wide">seen</p><a>seen</a></body>',
      ),
    ).toBe('<p class="wide">seen</p><a>seen</a>');
  });

  it("honours the page's selectors it can read when others in its stylesheet are beyond it", () => {
    expect(
      bodyAfter(
        '<head><style>.gone, a[href, #also-gone { display: none } p[title="x,y"] { display: none }</style></head>' +
          '<body><p class="gone">gone</p><p id="also-gone">gone</p><a href="/">seen</a><p title="x, y">seen</p></body>',
      ),
    ).toBe('<a href="/">seen</a><p title="x, y">seen</p>');
  });

  it('keeps <head> whole: metadata is read from it', () => {
    const document = parseHtml(
      '<head><title>T</title><meta name="description" content="d"></head><body>x</body>',
    );
    removeHidden(document, { cookieBanners: true });
    expect(document.head.innerHTML).toBe('<title>T</title><meta name="description" content="d">');
  });
});

describe('hidingSelectors', () => {
  it('reads the selectors of top-level rules that hide, skipping comments, at-rules and pseudo-classes', () => {
    expect(
      hidingSelectors(
        '/* .c { display:none } */ .a { display: none; } .b, .d { visibility: collapse } ' +
          '.e:focus { display:none } @supports (display: grid) { .f { display: none } } .g { display: block }',
      ),
    ).toEqual(['.a', '.b', '.d']);
  });
});
