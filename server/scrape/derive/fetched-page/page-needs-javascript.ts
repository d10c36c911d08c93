/**
 * Why a fetched HTML page would come out differently from a browser, or undefined when its HTML
 * already is the page a reader sees. The HTTP fast path serves a page without a browser only when
 * this finds nothing; it errs towards the browser, since a wrong "static" verdict loses content.
 *
 * Signs read from the HTML as fetched:
 * - little visible text while scripts are present (a client-rendered shell);
 * - an empty mount point of a front-end framework (#root, #__next, app-root …);
 * - a `<noscript>` telling the reader to turn JavaScript on;
 * - an inline script that writes the document (document.write, innerHTML, appendChild …);
 * - a meta refresh, which a browser follows and an HTTP client does not.
 */
export function pageNeedsJavaScript(document: Document): string | undefined {
  if (document.querySelector('meta[http-equiv="refresh" i]') !== null) return 'meta refresh';

  for (const noscript of Array.from(document.querySelectorAll('noscript'))) {
    if (NOSCRIPT_WARNING.test(noscript.textContent ?? '')) return 'noscript asks for JavaScript';
  }

  const scripts = Array.from(document.querySelectorAll('script')).filter((script) =>
    isExecutable(script.getAttribute('type')),
  );
  for (const script of scripts) {
    if (!script.hasAttribute('src') && WRITES_DOCUMENT.test(script.textContent ?? '')) {
      return 'an inline script writes the page';
    }
  }

  for (const mount of Array.from(document.querySelectorAll(FRAMEWORK_MOUNTS))) {
    if (visibleText(mount).length === 0) return 'empty framework mount point';
  }

  if (scripts.length > 0 && visibleText(document.body).length < MIN_TEXT_CHARS) {
    return 'little text besides scripts';
  }
  return undefined;
}

/** Below this much visible text, a page with scripts is taken for a shell that scripts fill. */
export const MIN_TEXT_CHARS = 200;

const NOSCRIPT_WARNING =
  /(enable|turn on|activate|requires?|need|needs|without)\b[^.]{0,40}\bjavascript|javascript\b[^.]{0,40}\b(disabled|required|enabled|must)/i;

/** DOM writes and framework entry points; reading the DOM (querySelector, getAttribute) is harmless. */
const WRITES_DOCUMENT =
  /document\.write|\.innerHTML\s*[+]?=|\.outerHTML\s*=|insertAdjacent(HTML|Element|Text)|\.(append|prepend|appendChild|insertBefore|replaceChildren|replaceWith|before|after)\s*\(|\.(textContent|innerText|nodeValue)\s*[+]?=|createRoot|ReactDOM|\.render\s*\(|hydrate|createApp\s*\(|new Vue\b|customElements\.define|\$\(|jQuery/;

const FRAMEWORK_MOUNTS = [
  '#root',
  '#app',
  '#__next',
  '#__nuxt',
  '#___gatsby',
  '#svelte',
  '[ng-app]',
  '[ng-version]',
  'app-root',
  '[data-reactroot]',
].join(', ');

/** Script types a browser runs; JSON-LD, import maps and templates carry data, not code. */
function isExecutable(type: string | null): boolean {
  if (type === null) return true;
  const mediaType = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    mediaType === '' ||
    mediaType === 'module' ||
    mediaType === 'text/javascript' ||
    mediaType === 'application/javascript' ||
    mediaType === 'text/ecmascript' ||
    mediaType === 'application/ecmascript'
  );
}

const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template']);

/** The text a reader could see inside `root` (scripts, styles and templates left out), trimmed. */
function visibleText(root: Element): string {
  let text = '';
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === TEXT_NODE) text += node.nodeValue ?? '';
    else if (node.nodeType === ELEMENT_NODE && !NOT_TEXT.has((node as Element).localName)) {
      const children = node.childNodes;
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Node);
    }
  }
  return text.replace(/\s+/g, ' ').trim();
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
