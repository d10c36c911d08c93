/**
 * Two kinds of page whose content is not there at `load`, for the completeness rows. Neither is
 * linked from the site's index, so the crawl rows stay as they were.
 *
 * - A late page writes its article 400 ms after `load` with a timer and no request (the page
 *   shows "Loading…" until then), as a page animating in or waiting on a framework's idle tick.
 * - A feed page starts with 3 entries and appends one per `scroll` event, up to FEED_ITEMS. Each
 *   entry is 40 % of the viewport high, so one screen of scrolling always reaches the bottom:
 *   a caller that scrolls again before the page has answered the last scroll finds nothing left
 *   to scroll, and gets no entry for it, as on an infinite-scroll page whose next batch has not
 *   arrived yet.
 */
export const LATE_DELAY_MS = 400;
export const FEED_ITEMS = 40;
export const FEED_START_ITEMS = 3;
/** Scroll steps a caller makes on a feed: enough for every entry, with some to spare. */
export const FEED_SCROLLS = 45;

const htmlDocument = (title: string, body: string) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; font: 16px sans-serif; } li { min-height: 40vh; }</style>
</head>
<body>
${body}
</body>
</html>
`;

const LATE_TEXT = 'finished rendering';
/** The sentence that proves a late page was captured after its script wrote it. */
export const lateMarker = (index: number) => `Late page ${index} ${LATE_TEXT}`;

export function latePage(index: number): string {
  // The script puts the page number into the text when it runs, so that the page's source (which
  // a capture or a converter might keep) does not hold the marker itself.
  return htmlDocument(
    `Late page ${index}`,
    `<main id="app"><p>Loading…</p></main>
<script>
window.addEventListener('load', () => {
  setTimeout(() => {
    const n = ${index};
    document.getElementById('app').innerHTML = '<article><h1>Late page ' + n + '</h1><p>Late page ' + n +
      ' ${LATE_TEXT}.</p><p>The hive keeps its honey in wax cells, and the keeper takes only what the colony can spare before winter.</p></article>';
  }, ${LATE_DELAY_MS});
});
</script>`,
  );
}

const FEED_ENTRY_TEXT = 'a frame of capped honey from the spring flow.';
const feedEntry = (feed: number, item: number) => `Feed ${feed} entry ${item}: ${FEED_ENTRY_TEXT}`;

export function feedPage(index: number): string {
  const first = Array.from({ length: FEED_START_ITEMS }, (_, i) => `<li>${feedEntry(index, i + 1)}</li>`);
  return htmlDocument(
    `Feed ${index}`,
    `<main><h1>Feed ${index}</h1><ul id="feed">${first.join('')}</ul></main>
<script>
const feed = document.getElementById('feed');
window.addEventListener('scroll', () => {
  if (feed.children.length >= ${FEED_ITEMS}) return;
  const item = document.createElement('li');
  item.textContent = 'Feed ${index} entry ' + (feed.children.length + 1) + ': ${FEED_ENTRY_TEXT}';
  feed.appendChild(item);
});
</script>`,
  );
}

/** Whether a late page's Markdown holds what its script wrote. */
export const lateComplete = (index: number, markdown: string) => markdown.includes(lateMarker(index));

/** Distinct entries of feed `index` in its Markdown. */
export function feedItemsIn(index: number, markdown: string): number {
  const found = new Set<string>();
  for (const match of markdown.matchAll(new RegExp(`Feed ${index} entry (\\d+):`, 'g')))
    found.add(match[1] ?? '');
  return found.size;
}

/** The page number in a /late/page-N.html or /feed/page-N.html address. */
export const pageIndex = (url: string) => Number(/page-(\d+)\.html/.exec(url)?.[1] ?? Number.NaN);
