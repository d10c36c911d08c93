import { describe, expect, it } from 'vitest';
import { cleanHtml } from '../../../shared/html/clean-html';
import { takeLayoutAnnotations } from '../../../shared/html/layout-annotations';
import { mainColumn, pruneByLayout } from '../../../shared/html/layout-pruning';
import { parseHtml } from '../../../shared/html/parse-html';
import { textWeights } from '../../../shared/html/text-weights';
import { deriveFormats } from '../../../shared/formats/derive-formats';
import { inspectFetchedPage } from '../../../server/scrape/derive/fetched-page/inspect-fetched-page';

const prose = (words: number, seed: string) =>
  Array.from({ length: words }, (_, index) => `${seed}${index % 13}`).join(' ') + '.';
const links = (count: number, seed: string) =>
  Array.from(
    { length: count },
    (_, i) => `<li><a href="/${seed}/${i}">${seed} link number ${i}</a></li>`,
  ).join('');

const LAYOUT = 'data-tabhive-layout="1280,800,1280,3000"';
const box = (x: number, y: number, width: number, height: number) =>
  `data-tabhive-box="${x},${y},${width},${height}"`;

/** An annotated capture: a 3-column grid under a sticky bar, with a fixed overlay and screen-reader text. */
function annotatedPage(
  { main = '', left = '', right = '', extra = '' }: Record<string, string> = {},
  layout = LAYOUT,
): string {
  return `<!doctype html><html ${layout}><head><title>Hives</title></head><body ${box(0, 0, 1280, 3000)}>
<div class="c0" data-tabhive-pos="sticky" ${box(0, 0, 1280, 60)}><a href="/">Home</a> <a href="/shop">Shop</a></div>
<div class="c1" ${box(0, 60, 1280, 2800)}>
  <div class="c2" ${box(0, 60, 260, 1200)}><ul ${box(0, 60, 260, 600)}>${links(8, 'left')}</ul>${left}</div>
  <div class="c3" ${box(280, 60, 720, 2800)}>
    <h1>Spring inspection</h1>
    <p>${prose(150, 'honey')}<span data-tabhive-pos="offscreen">Opens in a new window</span></p>
    <p>${prose(150, 'pollen')}</p>
    <table><thead data-tabhive-pos="sticky"><tr><th>Frame</th><th>Brood</th></tr></thead>
      <tbody><tr><td>1</td><td>capped</td></tr></tbody></table>
    ${main}
  </div>
  <div class="c4" ${box(1020, 60, 260, 900)}>${right || links(6, 'right')}</div>
</div>
<div class="c5" data-tabhive-pos="fixed" ${box(340, 200, 600, 300)}><p>Subscribe to our letter for weekly news about bees and hives and honey.</p></div>
<div class="c6" ${box(0, 2860, 1280, 140)}><div ${box(0, 2860, 320, 140)}>${links(4, 'footer')}</div></div>
${extra}
</body></html>`;
}

function pruned(html: string): HTMLElement {
  const document = parseHtml(html);
  const layout = takeLayoutAnnotations(document);
  expect(layout).toBeDefined();
  pruneByLayout(document.body, layout!);
  return document.body;
}

describe('takeLayoutAnnotations', () => {
  it('reads the boxes and positions and strips every annotation', () => {
    const document = parseHtml(annotatedPage());
    const layout = takeLayoutAnnotations(document)!;
    expect(layout).toMatchObject({
      viewportWidth: 1280,
      viewportHeight: 800,
      documentHeight: 3000,
      scrollY: 0,
    });
    expect(layout.boxes.get(document.querySelector('.c3')!)).toEqual({
      x: 280,
      y: 60,
      width: 720,
      height: 2800,
    });
    expect([...layout.positions.values()]).toEqual(['sticky', 'offscreen', 'sticky', 'fixed']);
    expect(document.documentElement.outerHTML).not.toContain('data-tabhive');
  });

  it('leaves a document without the layout marker alone: a page’s own attributes are not facts', () => {
    const html = `<html><body><div data-tabhive-pos="fixed">Mine</div></body></html>`;
    const document = parseHtml(html);
    expect(takeLayoutAnnotations(document)).toBeUndefined();
    expect(document.body.innerHTML).toBe('<div data-tabhive-pos="fixed">Mine</div>');
  });

  it('ignores values it cannot read', () => {
    const document = parseHtml(
      `<html ${LAYOUT}><body><div data-tabhive-box="1,2,x,4" data-tabhive-pos="floating">A</div></body></html>`,
    );
    const layout = takeLayoutAnnotations(document)!;
    expect(layout.boxes.size).toBe(0);
    expect(layout.positions.size).toBe(0);
    expect(document.body.innerHTML).toBe('<div>A</div>');
  });
});

describe('pruneByLayout', () => {
  it('removes the overlay, the sticky bar, the rails and screen-reader text, and keeps the article whole', () => {
    const body = pruned(annotatedPage());
    const text = body.textContent ?? '';
    expect(text).toContain('Spring inspection');
    expect(text).toContain('honey12');
    expect(text).toContain('pollen12');
    expect(body.querySelector('thead th')?.textContent).toBe('Frame');
    for (const gone of ['Subscribe', 'Shop', 'left link', 'right link', 'Opens in a new window']) {
      expect(text).not.toContain(gone);
    }
    // The footer's link column is below the article, not beside it.
    expect(text).toContain('footer link number 3');
  });

  it('keeps narrow prose beside the column (a byline, a buy box): not a rail of links', () => {
    const body = pruned(
      annotatedPage({ right: `<p>By Ann Keeper, <a href="/ann">beekeeper</a>. ${prose(30, 'byline')}</p>` }),
    );
    expect(body.textContent).toContain('byline3');
    expect(body.textContent).not.toContain('left link');
  });

  it('keeps a rail or a sticky bar that holds the page’s headline', () => {
    const html = annotatedPage()
      .replace('<h1>Spring inspection</h1>', '')
      .replace('<a href="/">Home</a>', '<h1>Spring inspection</h1>');
    const body = pruned(html);
    expect(body.querySelector('h1')?.textContent).toBe('Spring inspection');
    expect(body.textContent).toContain('Shop');
    expect(body.textContent).not.toContain('left link');
  });

  it('keeps a fixed hero that holds the page’s headline', () => {
    const html = annotatedPage()
      .replace('<h1>Spring inspection</h1>', '')
      .replace('<p>Subscribe', '<h1>Spring inspection</h1><p>Subscribe');
    const body = pruned(html);
    expect(body.querySelector('h1')?.textContent).toBe('Spring inspection');
  });

  it('removes an overlay with a headline of its own when the column has one', () => {
    const body = pruned(annotatedPage().replace('<p>Subscribe', '<h1>Your privacy</h1><p>Subscribe'));
    expect(body.textContent).not.toContain('Your privacy');
    expect(body.textContent).toContain('Spring inspection');
  });

  it('removes a sticky table of contents beside the column and keeps a sticky buy box', () => {
    const buyBox =
      `<div data-tabhive-pos="sticky" ${box(1020, 60, 260, 300)}>` +
      '<p>Hive tool, stainless: 24.00 EUR. In stock, ships tomorrow.</p><button>Add to cart</button></div>';
    const contents = `<div data-tabhive-pos="sticky" ${box(0, 60, 260, 300)}><ol>${links(5, 'contents')}</ol></div>`;
    const html = annotatedPage({ right: buyBox }).replace(/<ul [^>]*>.*?<\/ul>/, contents);
    const body = pruned(html);
    expect(body.textContent).toContain('24.00 EUR');
    expect(body.textContent).not.toContain('contents link');
  });

  it('removes a sticky bar stuck to the viewport, where the page was scrolled to, and no sticky row below', () => {
    const html = annotatedPage(
      {
        main: `<div data-tabhive-pos="sticky" ${box(280, 1400, 720, 60)}><a href="/plans">Plan names and prices</a></div>`,
        extra:
          `<div data-tabhive-pos="sticky" ${box(0, 1940, 1280, 60)}><a href="/app">Get the app</a></div>` +
          `<div data-tabhive-pos="sticky" ${box(0, 2400, 1280, 60)}><a href="/compare">Compare the plans</a></div>`,
      },
      'data-tabhive-layout="1280,800,1280,3000,0,1200"',
    );
    const body = pruned(html);
    expect(body.textContent).toContain('Plan names and prices');
    expect(body.textContent).toContain('Compare the plans');
    expect(body.textContent).not.toContain('Get the app');
  });

  it('keeps a sticky block inside the column and one that is neither a bar nor a rail', () => {
    const body = pruned(
      annotatedPage({
        main: `<div data-tabhive-pos="sticky" ${box(280, 900, 720, 40)}><a href="/toc">Contents</a></div>`,
        extra: `<div data-tabhive-pos="sticky" ${box(200, 3000, 900, 500)}><p>${prose(20, 'summary')}</p></div>`,
      }),
    );
    expect(body.textContent).toContain('Contents');
    expect(body.textContent).toContain('summary3');
  });

  it('never removes the main column’s ancestors, even fixed or sticky ones (an app shell)', () => {
    const html = annotatedPage().replace('<div class="c1" ', '<div class="c1" data-tabhive-pos="fixed" ');
    const body = pruned(html);
    expect(body.querySelector('.c1')).not.toBeNull();
    expect(body.textContent).toContain('honey12');
    expect(body.textContent).not.toContain('left link');
    expect(body.textContent).not.toContain('Subscribe');
  });

  it('keeps a fixed element holding most of the prose: a dialog showing the content', () => {
    const html = annotatedPage().replace(
      'Subscribe to our letter',
      `Subscribe to our letter ${prose(700, 'dialog')}`,
    );
    const body = pruned(html);
    expect(body.textContent).toContain('dialog12');
    expect(body.textContent).toContain('honey12');
  });

  it('keeps long prose and headings out of sight (a panel a reader opens), and removes a menu parked off-canvas', () => {
    const body = pruned(
      annotatedPage({
        main: `<div data-tabhive-pos="offscreen"><p>${prose(60, 'answer')}</p></div><h2 data-tabhive-pos="offscreen">Notes</h2>`,
        extra: `<nav data-tabhive-pos="offscreen"><ul>${links(20, 'drawer')}</ul></nav>`,
      }),
    );
    expect(body.textContent).toContain('answer12');
    expect(body.querySelector('h2')?.textContent).toBe('Notes');
    expect(body.textContent).not.toContain('drawer link');
  });

  it('removes nothing beside a column that is narrow itself (two equal columns)', () => {
    const html = annotatedPage().replace(box(1020, 60, 260, 900), box(1020, 60, 720, 900));
    const body = pruned(html);
    expect(body.textContent).toContain('right link number 1');
  });
});

describe('mainColumn', () => {
  it('is the boxed element around the deepest one with most of the prose', () => {
    const document = parseHtml(annotatedPage());
    const layout = takeLayoutAnnotations(document)!;
    expect(mainColumn(document.body, textWeights(document.body), layout).className).toBe('c3');
  });
});

describe('layout facts in the formats', () => {
  const capture = (renderedHtml: string) => ({
    url: 'https://hive.test/a',
    statusCode: 200,
    contentType: 'text/html',
    rawHtml: renderedHtml.replace(/ data-tabhive-[a-z]+="[^"]*"/g, ''),
    renderedHtml,
  });

  it.each([true, false])('never show in html, markdown or links (onlyMainContent %s)', (onlyMainContent) => {
    const derived = deriveFormats(capture(annotatedPage()), {
      formats: new Set(['markdown', 'html', 'links', 'rawHtml']),
      onlyMainContent,
      removeBase64Images: true,
    });
    for (const format of [derived.html, derived.markdown, derived.rawHtml, JSON.stringify(derived.links)]) {
      expect(format).not.toContain('data-tabhive');
    }
    expect(derived.markdown).toContain('honey12');
    if (onlyMainContent) expect(derived.markdown).not.toMatch(/Subscribe|left link|right link|Shop/);
    else
      for (const kept of ['Subscribe', 'left link', 'right link', 'Shop'])
        expect(derived.markdown).toContain(kept);
  });

  it('are stripped by cleanHtml, and includeTags matches are not pruned', () => {
    const html = cleanHtml(annotatedPage(), 'https://hive.test/', {
      onlyMainContent: true,
      includeTags: ['.c2'],
    });
    expect(html).toContain('left link number 1');
    expect(html).not.toContain('data-tabhive');
  });

  it('are not taken from a page the fast path fetched, whatever it claims', () => {
    const verdict = inspectFetchedPage(annotatedPage(), () => undefined);
    if (verdict.needsBrowser !== undefined) throw new Error(verdict.needsBrowser);
    expect(verdict.renderedHtml).not.toContain('data-tabhive-layout');
    const derived = deriveFormats(
      { ...capture(verdict.renderedHtml), rawHtml: annotatedPage(), renderedHtml: verdict.renderedHtml },
      { formats: new Set(['markdown']), onlyMainContent: true, removeBase64Images: true },
    );
    // Only the browser's facts tell that this text is out of sight.
    expect(derived.markdown).toContain('Opens in a new window');
  });
});
