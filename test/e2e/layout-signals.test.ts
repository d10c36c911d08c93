import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturePage, type InPageCapture } from '../../extension/page/capture-page';
import { convertCapture } from '../../extension/ui/convert-capture';
import { takeLayoutAnnotations } from '../../shared/html/layout-annotations';
import { pruneByLayout } from '../../shared/html/layout-pruning';
import { parseHtml } from '../../shared/html/parse-html';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * onlyMainContent with the layout facts the extension measures in the live page: a page whose
 * overlay, sticky bar, rails and screen-reader text are made by CSS alone, under class names no
 * blocklist knows. A request with a header of its own goes to the browser; one without takes the
 * HTTP fast path, which has no layout facts and must work as before.
 */
const ARTICLE = [
  'The spring inspection starts on the first warm afternoon, when the foragers are out and the hive is calm.',
  'Open the brood box frame by frame and look for eggs standing upright in the cells, the surest sign of a laying queen.',
  'Count the frames of capped brood, note the stores of honey and pollen, and look for queen cells along the lower edges.',
  'A colony that is short of stores in April needs a feed of thick syrup, given in a contact feeder above the cluster.',
  'Write everything down before closing the hive: the notes of one spring are the best guide to the next.',
];
const OVERLAY =
  'Subscribe to our letter for weekly news from the apiary, seasonal advice on swarm control and offers from the suppliers we trust';
const BAR_LINK = 'Beekeeping supplies shop';
const LEFT = ['Queen rearing calendar', 'Swarm control methods', 'Varroa treatment options', 'Hive scales'];
const RIGHT = [
  'Most read this week in the garden',
  'Our honey of the month',
  'Reader letters about wax moths',
];
const SCREEN_READER = 'Skip to the reader comments';

const page = `<!doctype html>
<html><head><title>Spring inspection</title>
<style>
  body { margin: 0; font: 16px/1.5 serif; }
  .c0 { position: sticky; top: 0; height: 48px; background: #fff; }
  .c1 { display: grid; grid-template-columns: 220px 640px 220px; gap: 24px; }
  .c2, .c4 { font-size: 14px; }
  .c5 { position: fixed; left: 30%; top: 30%; width: 400px; background: #eee; padding: 20px; }
  .c6 { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
</style></head>
<body>
<div class="c0"><a href="/">Home</a> · <a href="/shop">${BAR_LINK}</a> · <a href="/about">About us</a></div>
<div class="c1">
  <div class="c2">${LEFT.map((text, i) => `<div><a href="/left/${i}">${text}</a> and more</div>`).join('')}</div>
  <div class="c3">
    <h1>Spring inspection</h1>
    ${ARTICLE.map((text) => `<p>${text}</p>`).join('\n    ')}
    <span class="c6">${SCREEN_READER}</span>
    <div class="c5"><p>${OVERLAY}.</p><a href="/subscribe">Sign me up</a></div>
  </div>
  <div class="c4">${RIGHT.map((text, i) => `<div><a href="/right/${i}">${text}</a></div>`).join('')}</div>
</div>
</body></html>`;

/**
 * What layout must not be mistaken for chrome: a wide table in a scroller (its cells beyond the
 * viewport), a closed accordion panel, a block waiting to fade in, a sticky table header and a
 * product's sticky buy box; beside them a docs page's sticky navigation and table of contents.
 */
const PRODUCT_TEXT = 'The frame grip holds a deep brood frame with one hand and locks with a quarter turn.';
const KEPT = [
  PRODUCT_TEXT,
  'Column 12 of the frame table',
  'Closed panel: the grip fits frames up to 25 mm thick.',
  'Faded in on scroll: made of stainless steel and beech.',
  'Hive frame grip, 24.00 EUR, in stock',
];
const DOCS_NAV = ['Installing the grip', 'Cleaning and care', 'Spare parts'];
const riskyPage = `<!doctype html>
<html><head><title>Frame grip</title>
<style>
  body { margin: 0; display: flex; gap: 20px; }
  .n1 { position: sticky; top: 0; width: 200px; align-self: flex-start; }
  .n2 { width: 700px; }
  .n3 { overflow-x: auto; }
  .n3 td { min-width: 120px; }
  .n4 { height: 0; overflow: hidden; }
  .n5 { opacity: 0; }
  .n6 { position: sticky; top: 0; background: #fff; }
  .n7 { width: 260px; }
  .n8 { position: sticky; top: 0; }
</style></head>
<body>
<nav class="n1"><ul>${DOCS_NAV.map((text, i) => `<li><a href="/docs/${i}">${text}</a></li>`).join('')}</ul></nav>
<div class="n2">
  <h1>Frame grip</h1>
  <p>${PRODUCT_TEXT} ${ARTICLE.join(' ')}</p>
  <div class="n3"><table><thead class="n6"><tr>${Array.from({ length: 12 }, (_, i) => `<th>Size ${i + 1}</th>`).join('')}</tr></thead>
    <tbody><tr>${Array.from({ length: 12 }, (_, i) => `<td>Column ${i + 1} of the frame table</td>`).join('')}</tr></tbody></table></div>
  <button>Details</button><div class="n4"><p>${KEPT[2]}</p></div>
  <p class="n5">${KEPT[3]}</p>
</div>
<div class="n7"><div class="n8"><p>${KEPT[4]}</p><button>Add to cart</button></div></div>
</body></html>`;

let site: { url: string; close(): Promise<void>; userAgents: string[]; riskyUrl: string };
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  const userAgents: string[] = [];
  const server = http.createServer((request, response) => {
    userAgents.push(String(request.headers['user-agent']));
    const body = { '/inspection.html': page, '/frame-grip.html': riskyPage }[request.url ?? ''];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  site = {
    url: `http://127.0.0.1:${port}/inspection.html`,
    riskyUrl: `http://127.0.0.1:${port}/frame-grip.html`,
    userAgents,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

async function scrape(onlyMainContent: boolean, browser: boolean) {
  const before = site.userAgents.length;
  const { status, json } = await tabhive.post('/v2/scrape', {
    url: site.url,
    formats: ['markdown', 'html', 'rawHtml'],
    onlyMainContent,
    maxAge: 0,
    // A header of its own sends a request to the browser (fastPathEligible).
    ...(browser ? { headers: { 'x-layout-test': 'browser' } } : {}),
  });
  expect(status).toBe(200);
  const agents = site.userAgents.slice(before);
  expect(agents.some((agent) => agent.includes('Chrome'))).toBe(browser);
  return json.data as { markdown: string; html: string; rawHtml: string };
}

const expectArticleWhole = (markdown: string) => {
  expect(markdown).toContain('# Spring inspection');
  for (const paragraph of ARTICLE) expect(markdown).toContain(paragraph);
};

describe('layout facts from the live page', () => {
  it('leave out the overlay, the sticky bar, the rails and screen-reader text with onlyMainContent', async () => {
    const document = await scrape(true, true);
    expectArticleWhole(document.markdown);
    for (const chrome of [OVERLAY, BAR_LINK, ...LEFT, ...RIGHT, SCREEN_READER]) {
      expect(document.markdown).not.toContain(chrome);
      expect(document.html).not.toContain(chrome);
    }
    for (const format of [document.markdown, document.html, document.rawHtml]) {
      expect(format).not.toContain('data-tabhive');
    }
    // rawHtml is the page as the browser holds it, the stylesheet and the overlay included.
    expect(document.rawHtml).toContain(OVERLAY);
    expect(document.rawHtml).toContain('grid-template-columns');
  });

  it('change nothing without onlyMainContent, and never show in a format', async () => {
    const document = await scrape(false, true);
    expectArticleWhole(document.markdown);
    for (const chrome of [OVERLAY, BAR_LINK, ...LEFT, ...RIGHT, SCREEN_READER]) {
      expect(document.markdown).toContain(chrome);
    }
    for (const format of [document.markdown, document.html, document.rawHtml]) {
      expect(format).not.toContain('data-tabhive');
    }
  });

  it('are not needed by the HTTP fast path, which serves the page as before', async () => {
    const whole = await scrape(false, false);
    expectArticleWhole(whole.markdown);
    for (const chrome of [OVERLAY, ...LEFT, ...RIGHT, SCREEN_READER])
      expect(whole.markdown).toContain(chrome);
    const main = await scrape(true, false);
    expectArticleWhole(main.markdown);
    // Only the browser's facts tell that this text is out of sight.
    expect(main.markdown).toContain(SCREEN_READER);
    for (const format of [main.markdown, main.html, main.rawHtml, whole.html]) {
      expect(format).not.toContain('data-tabhive');
    }
    expect(main.rawHtml).toBe(page);
  });
});

describe('the capture script in Chromium', () => {
  let capture: InPageCapture;
  let risky: InPageCapture;

  beforeAll(async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/lib/chromium/chromium',
      headless: true,
      // Chromium refuses to start its sandbox as root.
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await tab.goto(site.url);
      // The page claims a layout fact of its own: only the browser's may count.
      await tab.evaluate(() => document.querySelector('.c3 p')?.setAttribute('data-tabhive-pos', 'fixed'));
      capture = (await tab.evaluate(`(${capturePage.toString()})({})`)) as InPageCapture;
      await tab.goto(site.riskyUrl);
      risky = (await tab.evaluate(`(${capturePage.toString()})({})`)) as InPageCapture;
    } finally {
      await browser.close();
    }
  });

  it('writes the layout facts on the rendered copy only, over what the page claims', () => {
    expect(capture.rawHtml).toContain('<p data-tabhive-pos="fixed">');
    expect(capture.rawHtml).not.toMatch(/data-tabhive-(box|layout)|data-tabhive-pos="(sticky|offscreen)"/);
    const rendered = parseHtml(capture.renderedHtml);
    const at = (selector: string, attribute: string) =>
      rendered.querySelector(selector)?.getAttribute(attribute);
    expect(at('html', 'data-tabhive-layout')).toMatch(/^1280,800,1280,\d+,0,0$/);
    expect(at('.c0', 'data-tabhive-pos')).toBe('sticky');
    expect(at('.c0', 'data-tabhive-box')).toBe('0,0,1280,48');
    expect(at('.c5', 'data-tabhive-pos')).toBe('fixed');
    expect(at('.c6', 'data-tabhive-pos')).toBe('offscreen');
    expect(at('.c2', 'data-tabhive-box')).toMatch(/^0,48,220,\d+$/);
    expect(at('.c3', 'data-tabhive-box')).toMatch(/^244,48,640,\d+$/);
    expect(at('.c4', 'data-tabhive-box')).toMatch(/^908,48,220,\d+$/);
    expect(at('.c3 p', 'data-tabhive-pos')).toBeNull();
    // Paragraphs and links are not boxed: the facts stay few.
    expect(rendered.querySelectorAll('p[data-tabhive-box], a[data-tabhive-box]')).toHaveLength(0);
  });

  it('are enough, without the main-content extraction, to leave out the chrome', () => {
    const document = parseHtml(capture.renderedHtml);
    pruneByLayout(document.body, takeLayoutAnnotations(document)!);
    const text = (document.body.textContent ?? '').replace(/\s+/g, ' ');
    for (const paragraph of ARTICLE) expect(text).toContain(paragraph);
    for (const chrome of [OVERLAY, BAR_LINK, ...LEFT, ...RIGHT, SCREEN_READER])
      expect(text).not.toContain(chrome);
  });

  it('give the popup what the API gives, and never show in it', () => {
    const main = convertCapture(capture, { onlyMainContent: true });
    expectArticleWhole(main.markdown);
    for (const chrome of [OVERLAY, BAR_LINK, ...LEFT, ...RIGHT, SCREEN_READER]) {
      expect(main.markdown).not.toContain(chrome);
    }
    const whole = convertCapture(capture, { onlyMainContent: false });
    for (const chrome of [OVERLAY, BAR_LINK, ...LEFT, ...RIGHT, SCREEN_READER])
      expect(whole.markdown).toContain(chrome);
    for (const output of [main.markdown, main.html, whole.markdown, whole.html]) {
      expect(output).not.toContain('data-tabhive');
    }
  });

  it('tell content in unusual places from chrome: only the docs navigation goes', () => {
    const document = parseHtml(risky.renderedHtml);
    pruneByLayout(document.body, takeLayoutAnnotations(document)!);
    const text = (document.body.textContent ?? '').replace(/\s+/g, ' ');
    for (const kept of KEPT) expect(text).toContain(kept);
    expect(document.body.querySelectorAll('th')).toHaveLength(12);
    for (const nav of DOCS_NAV) expect(text).not.toContain(nav);
  });
});
