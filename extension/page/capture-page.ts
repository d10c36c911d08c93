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
 * (display:none, visibility:hidden) left out, which is what Markdown should be made of. The walk
 * is iterative because some pages nest thousands deep.
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

  const isHidden = (element: Element): boolean => {
    const style = getComputedStyle(element);
    return style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse';
  };

  const rootCopy = root.cloneNode(false) as Element;
  const stack: Array<[Node, Node]> = [];
  for (const child of Array.from(root.childNodes)) stack.push([child, rootCopy]);
  // The stack is processed back to front, so children are pushed in reverse to keep their order.
  stack.reverse();
  while (stack.length > 0) {
    const [source, parentCopy] = stack.pop() as [Node, Node];
    if (source.nodeType === Node.ELEMENT_NODE) {
      const element = source as Element;
      const tag = element.localName;
      // <head> is never displayed, but its title and meta tags are what metadata is made of.
      if (tag === 'head') {
        parentCopy.appendChild(element.cloneNode(true));
        continue;
      }
      if (isHidden(element)) continue;
      const copy = element.cloneNode(false);
      parentCopy.appendChild(copy);
      const children = Array.from(element.childNodes);
      for (let index = children.length - 1; index >= 0; index -= 1) {
        stack.push([children[index] as Node, copy]);
      }
    } else if (source.nodeType === Node.TEXT_NODE || source.nodeType === Node.CDATA_SECTION_NODE) {
      parentCopy.appendChild(source.cloneNode(false));
    }
  }

  return {
    url: location.href,
    rawHtml,
    renderedHtml: doctypeText + (rootCopy as Element).outerHTML,
    documentContentType: document.contentType,
    ...(settledBy === undefined ? {} : { settledBy, quietSince }),
    responseStatus,
  };
}
