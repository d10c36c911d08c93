import { describe, expect, it } from 'vitest';
import { InvalidSelectorError, cleanHtml, validateSelectors } from '../../../shared/html/clean-html';
import { parseHtml } from '../../../shared/html/parse-html';

const BASE_URL = 'https://example.test/docs/page';

function clean(body: string, options: Partial<Parameters<typeof cleanHtml>[2]> = {}, head = ''): string {
  return cleanHtml(`<html><head>${head}</head><body>${body}</body></html>`, BASE_URL, {
    onlyMainContent: false,
    ...options,
  });
}

describe('cleanHtml', () => {
  it('removes scripts, styles, templates, head and comments', () => {
    const html = clean(
      '<p>Keep</p><script>alert(1)</script><style>p{}</style><noscript>Enable JS</noscript>' +
        '<template><p>Later</p></template><link rel="preload" href="/x"><meta name="a" content="b"><!-- note -->',
      {},
      '<title>T</title>',
    );
    expect(html).toBe('<p>Keep</p>');
  });

  it('makes href, src and srcset absolute against the page URL', () => {
    const html = clean(
      '<a href="../guide">Guide</a><img src="img/a.png" srcset="img/a.png 1x, /img/a@2x.png 2x"><a href="#top">Top</a>',
    );
    expect(html).toBe(
      '<a href="https://example.test/guide">Guide</a>' +
        '<img src="https://example.test/docs/img/a.png" srcset="https://example.test/docs/img/a.png 1x, https://example.test/img/a@2x.png 2x">' +
        '<a href="https://example.test/docs/page#top">Top</a>',
    );
  });

  it('resolves against <base href> when the page has one', () => {
    const html = clean('<a href="next">Next</a>', {}, '<base href="/v2/">');
    expect(html).toBe('<a href="https://example.test/v2/next">Next</a>');
  });

  it('keeps commas that belong to a srcset URL', () => {
    const html = clean('<img srcset="a.jpg?crop=1,2 480w,b.jpg 800w">');
    expect(html).toBe(
      '<img srcset="https://example.test/docs/a.jpg?crop=1,2 480w, https://example.test/docs/b.jpg 800w">',
    );
  });

  it('keeps only includeTags matches, each once, in document order', () => {
    const html = clean(
      '<div><p class="x">One</p><section class="x"><p class="x">Two</p></section></div><h2 id="y">Three</h2>',
      {
        includeTags: ['#y', '.x'],
      },
    );
    expect(html).toBe(
      '<p class="x">One</p><section class="x"><p class="x">Two</p></section><h2 id="y">Three</h2>',
    );
  });

  it('removes excludeTags matches', () => {
    const html = clean('<p>Keep</p><div class="promo">Buy</div><p data-ad>Ad</p>', {
      excludeTags: ['.promo', '[data-ad]'],
    });
    expect(html).toBe('<p>Keep</p>');
  });

  it('ignores blank selectors', () => {
    expect(clean('<p>Keep</p>', { includeTags: ['  '], excludeTags: [''] })).toBe('<p>Keep</p>');
  });

  it('throws InvalidSelectorError naming the bad selector', () => {
    expect(() => clean('<p>x</p>', { excludeTags: ['p', 'div[[['] })).toThrow(InvalidSelectorError);
    try {
      clean('<p>x</p>', { includeTags: ['::before'] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidSelectorError);
      expect((error as InvalidSelectorError).selector).toBe('::before');
      expect((error as InvalidSelectorError).message).toBe('Invalid CSS selector: ::before');
    }
  });

  it('validates selectors on their own, before any page is fetched', () => {
    expect(() => validateSelectors(['main', 'div > p.intro', 'a[href^="https"]'])).not.toThrow();
    expect(() => validateSelectors(['main', 'p:::x'])).toThrow(InvalidSelectorError);
  });
});

describe('cleanHtml with onlyMainContent', () => {
  const main = (body: string) => clean(body, { onlyMainContent: true });

  it('drops page header, nav, footer and sidebar around <main>', () => {
    const html = main(
      '<header><a href="/">Logo</a></header><nav><a href="/a">A</a></nav>' +
        '<main><h1>Title</h1><p>Body</p></main>' +
        '<aside>Related</aside><div class="sidebar">Widgets</div><footer>© Example</footer>',
    );
    expect(html).toBe('<main><h1>Title</h1><p>Body</p></main>');
  });

  it("keeps an article's own header, footer and asides", () => {
    const html = main(
      '<article><header><h1>Title</h1><p>By Ann</p></header><p>Text</p>' +
        '<aside class="note">Note</aside><footer>Tags: x</footer></article><aside>Sidebar</aside>',
    );
    expect(html).toBe(
      '<article><header><h1>Title</h1><p>By Ann</p></header><p>Text</p>' +
        '<aside class="note">Note</aside><footer>Tags: x</footer></article>',
    );
  });

  it('still removes navigation, share buttons and ads inside the content', () => {
    const html = main(
      '<main><nav class="toc"><a href="#a">A</a></nav><p>Text</p><div class="share">Share</div><div class="ad">Ad</div></main>',
    );
    expect(html).toBe('<main><p>Text</p></main>');
  });

  it('never removes an element that holds the main content, whatever its class', () => {
    const html = main(
      '<div class="menu"><div id="main"><p>Content</p></div></div><div class="menu">Menu</div>',
    );
    expect(html).toBe('<div class="menu"><div id="main"><p>Content</p></div></div>');
  });

  it('protects <article> on pages without <main>', () => {
    const html = main(
      '<div class="modal"><article><p>Story</p></article></div><div class="cookie">Accept</div>',
    );
    expect(html).toBe('<div class="modal"><article><p>Story</p></article></div>');
  });

  it('does not let teaser articles in a sidebar protect it when the page has <main>', () => {
    const html = main('<main><p>Story</p></main><aside><article>Other story</article></aside>');
    expect(html).toBe('<main><p>Story</p></main>');
  });

  it('drops role-marked landmarks and cookie banners', () => {
    const html = main(
      '<div role="banner">Site</div><div role="navigation">Menu</div><div id="cookie-banner">Cookies?</div>' +
        '<div role="main"><p>Body</p></div><div role="contentinfo">Contact</div>',
    );
    expect(html).toBe('<div role="main"><p>Body</p></div>');
  });

  it('treats a #main that wraps content and sidebar as the page, not as content', () => {
    const html = main(
      '<div id="main"><div role="main"><p>Body</p></div><aside class="widgets"><p>Recent posts</p></aside></div>',
    );
    expect(html).toBe('<div id="main"><div role="main"><p>Body</p></div></div>');
  });

  it('keeps includeTags roots even when they look like boilerplate', () => {
    const html = clean('<nav><a href="/a">A</a><div class="ad">Ad</div></nav><p>Other</p>', {
      onlyMainContent: true,
      includeTags: ['nav'],
    });
    expect(html).toBe('<nav><a href="https://example.test/a">A</a></nav>');
  });
});

describe('cleanHtml and iframes', () => {
  // shared/api rewrites `iframe` in includeTags/excludeTags to this selector (docs/wire-contract.md §3.1).
  const IFRAME = 'div[data-original-tag="iframe"]';

  it('turns iframes into marked divs, keeping their attributes', () => {
    const div = parseHtml(clean('<iframe src="/embed/1" class="video" title="Demo">fallback</iframe>')).body
      .firstElementChild;
    expect(div?.outerHTML).toMatch(/^<div [^>]*><\/div>$/);
    expect(Object.fromEntries(Array.from(div?.attributes ?? [], (a) => [a.name, a.value]))).toEqual({
      src: 'https://example.test/embed/1',
      class: 'video',
      title: 'Demo',
      'data-original-tag': 'iframe',
    });
  });

  it('lets rewritten iframe selectors include and exclude them', () => {
    const body = '<p>Text</p><iframe src="https://video.test/1"></iframe>';
    expect(clean(body, { excludeTags: [IFRAME] })).toBe('<p>Text</p>');
    const included = parseHtml(clean(body, { includeTags: [IFRAME] })).body;
    expect(included.children).toHaveLength(1);
    expect(included.firstElementChild?.getAttribute('src')).toBe('https://video.test/1');
  });
});
