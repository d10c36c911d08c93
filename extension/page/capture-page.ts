/** How the page settles before it is captured (or, for actions, instead of a capture). */
export interface SettleOptions {
  /** The DOM must have had no change for this long. */
  quietMs: number;
  /** From the start of settling (after `load`): the page is taken as it is then. */
  capMs: number;
  /** The caller's `waitFor`, after settling. */
  extraWaitMs: number;
}

export interface CaptureOptions {
  /** Wait for `load` and for the page to settle first; absent: capture at once (the popup). */
  settle?: SettleOptions;
  /** Style sheet rules hiding cookie banners, adopted before what is displayed is decided. */
  bannerCss?: string;
  /** False: settle only (between actions), returning no HTML. */
  capture?: boolean;
  /**
   * A selector of folded panels (tabs, accordions) kept although not displayed: their text is the
   * page's (shared/html/content-panels.ts).
   */
  contentPanels?: string;
}

/** How settling ended: the DOM went quiet, or the cap came first (a ticking page, a placeholder). */
export type SettledBy = 'inert' | 'quiet' | 'cap';

/** What the in-page capture returns. */
export interface InPageCapture {
  url: string;
  rawHtml: string;
  renderedHtml: string;
  documentContentType: string;
  /** Present when the capture settled first. */
  settledBy?: SettledBy;
  /** Date.now() in the page when the DOM last changed before the capture (settled captures). */
  quietSince?: number;
  /** The document's HTTP status from Navigation Timing (0 when the browser does not say). */
  responseStatus?: number;
  /** Milliseconds the page spent serialising itself (both HTML forms), for the stage metrics. */
  captureMs?: number;
}

/**
 * Runs inside the page (serialised with toString and evaluated through the debugger, or passed to
 * scripting.executeScript), so it must be self-contained: no imports, no outer variables.
 *
 * The caller waits for `load` first: a script that scripting.executeScript injects holds the
 * document's load event until it returns, so one that waited for `load` would wait forever.
 *
 * Settling: after `load`, the page is captured once its DOM has had no change for `quietMs` and it
 * has drawn a frame since; a page still showing a loading placeholder (no text, or a short
 * "Loading…" text) is given until `capMs` to replace it, since a script may write the content from
 * a timer with nothing on the network to wait for. A page that never stops changing (a ticking
 * clock) is taken at `capMs`. A page without scripts or meta refresh cannot change by itself and
 * is taken at `load`.
 *
 * Capture: the DOM serialised twice: as it is, and with the elements a reader cannot see
 * (display:none, visibility:hidden) left out, which is what Markdown should be made of; folded panels
 * (`contentPanels`: tabs, accordions) stay, their text being the page's. The walk
 * is iterative because some pages nest thousands deep.
 *
 * The rendered copy also carries layout facts only a browser has, for onlyMainContent to use
 * (shared/html/layout-annotations.ts reads and strips them; no caller ever sees them):
 * `data-tabhive-layout="viewportWidth,viewportHeight,documentWidth,documentHeight,scrollX,scrollY"`
 * on `<html>`; `data-tabhive-pos="fixed|sticky|offscreen"` on positioned elements and on text
 * placed where no one sees it (screen-reader-only); `data-tabhive-box="x,y,width,height"`
 * (document pixels) on positioned elements and on the containers and layout items that start a
 * column of their own: a block in its ancestor's column (a section, a card, a paragraph) and an
 * inline element get none, which keeps the facts to about 1% of the HTML. Attributes of these
 * names the page set itself are dropped from the copy, so the facts are the browser's.
 */
export async function capturePage(options: CaptureOptions = {}): Promise<InPageCapture> {
  const settle = options.settle;
  let settledBy: SettledBy | undefined;
  let quietSince: number | undefined;
  if (settle !== undefined) {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // A hidden or throttled tab may draw no frame: then a short timer stands in for it.
    const nextFrame = () =>
      new Promise((resolve) => {
        requestAnimationFrame(resolve);
        setTimeout(resolve, 100);
      });
    const inert =
      document.scripts.length === 0 && document.querySelector('meta[http-equiv="refresh" i]') === null;
    const started = Date.now();
    let lastChange = started;
    const observer = new MutationObserver(() => (lastChange = Date.now()));
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    const placeholder = () => {
      const text = (document.body?.innerText ?? '').trim();
      return (
        text.length === 0 ||
        (text.length <= 120 &&
          /(^|\b)(loading|please wait|one moment|just a moment|chargement|cargando|wird geladen)\b|…$|\.\.\.$/i.test(
            text,
          ))
      );
    };
    settledBy = inert ? 'inert' : 'cap';
    while (!inert) {
      await nextFrame();
      const now = Date.now();
      if (now - started >= settle.capMs) break;
      if (now - lastChange >= settle.quietMs && !placeholder()) {
        settledBy = 'quiet';
        break;
      }
      await sleep(
        Math.max(10, Math.min(settle.quietMs - (now - lastChange), settle.capMs - (now - started))),
      );
    }
    observer.disconnect();
    quietSince = lastChange;
    if (settle.extraWaitMs > 0) await sleep(settle.extraWaitMs);
  }
  const navigation = performance.getEntriesByType('navigation')[0] as
    (PerformanceEntry & { responseStatus?: number }) | undefined;
  const responseStatus = navigation?.responseStatus ?? 0;
  if (options.capture === false) {
    return {
      url: location.href,
      rawHtml: '',
      renderedHtml: '',
      documentContentType: document.contentType,
      ...(settledBy === undefined ? {} : { settledBy, quietSince }),
      responseStatus,
    };
  }
  const captureStarted = performance.now();
  if (options.bannerCss !== undefined) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(options.bannerCss);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  const doctype = document.doctype;
  const doctypeText = doctype
    ? `<!DOCTYPE ${doctype.name}${doctype.publicId ? ` PUBLIC "${doctype.publicId}"` : ''}${
        doctype.systemId ? ` "${doctype.systemId}"` : ''
      }>\n`
    : '';
  const root = document.documentElement;
  const rawHtml = doctypeText + root.outerHTML;

  const LAYOUT_ATTRIBUTE = 'data-tabhive-layout';
  const BOX_ATTRIBUTE = 'data-tabhive-box';
  const POSITION_ATTRIBUTE = 'data-tabhive-pos';
  /** Enough boxes for the columns of any page; bounds what a page of 100,000 blocks adds. */
  const MAX_BOXES = 1500;
  /** A container smaller than this is a button or an icon, not a column. */
  const MIN_CONTAINER_WIDTH = 48;
  const MIN_CONTAINER_HEIGHT = 24;
  /** A flex or grid item, or a float, without blocks inside is boxed from this size: a rail of links. */
  const MIN_ITEM_WIDTH = 96;
  const MIN_ITEM_HEIGHT = 48;
  const BLOCK_DISPLAYS = new Set([
    'block',
    'flow-root',
    'flex',
    'grid',
    'table',
    'list-item',
    'table-cell',
    'inline-block',
    'inline-flex',
    'inline-grid',
  ]);
  // A sticky header cell is how a long table stays readable: content, whatever its position.
  const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption']);
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const documentWidth = Math.max(root.scrollWidth, window.innerWidth);
  const documentHeight = Math.max(root.scrollHeight, window.innerHeight);
  let boxes = 0;

  /** What the walk knows of an element copied into the rendered tree. */
  interface Placed {
    copy: Element;
    /** Its box, rounded, in document coordinates. */
    x: number;
    y: number;
    width: number;
    height: number;
    /** Flex and grid containers lay their children out as columns. */
    lays: boolean;
    boxed: boolean;
    /** The nearest boxed ancestor, whose box or column a box of the same would only repeat. */
    anchor: Placed | undefined;
    /** No layout facts inside: an element placed off-screen, whose descendants are moot. */
    quiet: boolean;
  }
  /**
   * Columns are what onlyMainContent tells apart, so a block in its ancestor's column (a section
   * of the article, a card in a list) is not boxed; a positioned element is, its height and place
   * being what tells a header bar from a sidebar.
   */
  const writeBox = (placed: Placed, minWidth: number, minHeight: number, positioned = false) => {
    if (placed.boxed || placed.quiet || boxes >= MAX_BOXES) return;
    if (placed.width < minWidth || placed.height < minHeight) return;
    const anchor = placed.anchor;
    const sameColumn = anchor !== undefined && anchor.x === placed.x && anchor.width === placed.width;
    const sameBox = sameColumn && anchor.y === placed.y && anchor.height === placed.height;
    if (sameBox || (sameColumn && !positioned)) return;
    placed.copy.setAttribute(BOX_ATTRIBUTE, `${placed.x},${placed.y},${placed.width},${placed.height}`);
    placed.boxed = true;
    boxes += 1;
  };
  /**
   * Text a sighted reader never sees although it is displayed: absolutely positioned and clipped to
   * a pixel, or moved out of the document (the screen-reader-only patterns). A collapsed accordion
   * (height 0 in the flow) and a faded-in block (opacity 0) are not: a reader opens or scrolls to them.
   */
  const offscreen = (element: Element, style: CSSStyleDeclaration, rect: DOMRect): boolean => {
    if (style.position !== 'absolute') return false;
    const clipped =
      /^rect\(0px,? 0px,? 0px,? 0px\)$/.test(style.clip) ||
      style.clipPath === 'inset(50%)' ||
      ((rect.width <= 1 || rect.height <= 1) && style.overflow !== 'visible');
    const left = rect.left + scrollX;
    const top = rect.top + scrollY;
    const outside =
      left + rect.width <= 0 || top + rect.height <= 0 || left >= documentWidth || top >= documentHeight;
    return (clipped || outside) && (element.textContent ?? '').trim() !== '';
  };

  const rootCopy = root.cloneNode(false) as Element;
  rootCopy.removeAttribute(BOX_ATTRIBUTE);
  rootCopy.removeAttribute(POSITION_ATTRIBUTE);
  rootCopy.setAttribute(
    LAYOUT_ATTRIBUTE,
    [window.innerWidth, window.innerHeight, documentWidth, documentHeight, scrollX, scrollY]
      .map(Math.round)
      .join(','),
  );
  const stack: Array<[Node, Node, Placed | undefined]> = [];
  for (const child of Array.from(root.childNodes)) stack.push([child, rootCopy, undefined]);
  // The stack is processed back to front, so children are pushed in reverse to keep their order.
  stack.reverse();
  while (stack.length > 0) {
    const [source, parentCopy, parent] = stack.pop() as [Node, Node, Placed | undefined];
    if (source.nodeType === Node.ELEMENT_NODE) {
      const element = source as Element;
      const tag = element.localName;
      // <head> is never displayed, but its title and meta tags are what metadata is made of.
      if (tag === 'head') {
        parentCopy.appendChild(element.cloneNode(true));
        continue;
      }
      const style = getComputedStyle(element);
      const hidden =
        style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse';
      if (hidden && !(options.contentPanels !== undefined && element.matches(options.contentPanels))) {
        continue;
      }
      const copy = element.cloneNode(false) as Element;
      copy.removeAttribute(LAYOUT_ATTRIBUTE);
      copy.removeAttribute(BOX_ATTRIBUTE);
      copy.removeAttribute(POSITION_ATTRIBUTE);
      parentCopy.appendChild(copy);
      // A folded panel has no box: nothing inside it says anything of the page's layout.
      let placed: Placed | undefined = hidden
        ? { copy, x: 0, y: 0, width: 0, height: 0, lays: false, boxed: false, anchor: undefined, quiet: true }
        : parent;
      const position = style.position;
      // Inline boxes (a link, a span) and the insides of a drawing (SVG) are not measured: only
      // blocks and positioned elements can make a column or cover the page, and reading every box costs.
      const measured =
        element instanceof HTMLElement &&
        (BLOCK_DISPLAYS.has(style.display) || position === 'fixed' || position === 'sticky');
      if (!hidden && parent?.quiet !== true && measured) {
        const rect = element.getBoundingClientRect();
        placed = {
          copy,
          x: Math.round(rect.left + scrollX),
          y: Math.round(rect.top + scrollY),
          width: Math.round(rect.width),
          height: Math.round(rect.height),
          lays: style.display.endsWith('flex') || style.display.endsWith('grid'),
          boxed: false,
          anchor: parent === undefined ? undefined : parent.boxed ? parent : parent.anchor,
          quiet: false,
        };
        if ((position === 'fixed' || position === 'sticky') && !TABLE_PARTS.has(tag)) {
          copy.setAttribute(POSITION_ATTRIBUTE, position);
          writeBox(placed, 0, 0, true);
        } else if (offscreen(element, style, rect)) {
          copy.setAttribute(POSITION_ATTRIBUTE, 'offscreen');
          placed.quiet = true;
        } else if (BLOCK_DISPLAYS.has(style.display)) {
          // A block inside makes its parent a container worth a box; a column of inline links is
          // boxed as a flex or grid item, or a float.
          if (parent !== undefined) writeBox(parent, MIN_CONTAINER_WIDTH, MIN_CONTAINER_HEIGHT);
          if (parent?.lays === true || style.float !== 'none')
            writeBox(placed, MIN_ITEM_WIDTH, MIN_ITEM_HEIGHT);
        }
      }
      const children = Array.from(element.childNodes);
      for (let index = children.length - 1; index >= 0; index -= 1) {
        stack.push([children[index] as Node, copy, placed]);
      }
    } else if (source.nodeType === Node.TEXT_NODE || source.nodeType === Node.CDATA_SECTION_NODE) {
      parentCopy.appendChild(source.cloneNode(false));
    }
  }

  const renderedHtml = doctypeText + (rootCopy as Element).outerHTML;
  return {
    url: location.href,
    rawHtml,
    renderedHtml,
    documentContentType: document.contentType,
    ...(settledBy === undefined ? {} : { settledBy, quietSince }),
    responseStatus,
    captureMs: performance.now() - captureStarted,
  };
}
