import { DOMParser } from 'linkedom';

const DOCUMENT_TYPE_NODE = 10;

/**
 * Parses an HTML string into a DOM document with linkedom. linkedom rather than the platform's
 * DOMParser because the extension's service worker has none, and the server has no DOM at all.
 *
 * linkedom builds the tree as written and does not repair it the way a browser does: a fragment
 * becomes the document element itself, and content outside `<body>` stays outside. Browser captures
 * are always whole documents; fragments (hand-written HTML, tests) are given an html/head/body
 * skeleton so `document.head` and `document.body` can be relied on.
 */
export function parseHtml(html: string): Document {
  // linkedom's DOMParser is typed loosely; its documents implement the DOM Document interface.
  const document = new DOMParser().parseFromString(withHtmlCdata(html), 'text/html') as unknown as Document;
  ensureSkeleton(document);
  return document;
}

/**
 * In HTML content a browser reads `<![CDATA[` as a bogus comment that ends at the next `>`;
 * linkedom's parser reads it as a comment up to `]]>`, which on a page that prints one stray
 * `<![CDATA[` in its body (a forum theme, issue 35) hides the whole body. The marker is rewritten
 * into the comment a browser makes of it. Inside scripts and styles, where it is common, the
 * rewrite changes only text that no format shows.
 */
function withHtmlCdata(html: string): string {
  if (!html.includes('<![CDATA[')) return html;
  return html.replace(CDATA_OPENING, '<!--[CDATA[$1-->');
}

const CDATA_OPENING = /<!\[CDATA\[([^>]*)>/g;

function ensureSkeleton(document: Document): void {
  // Read `documentElement` and children directly: linkedom's `head`/`body` getters create missing
  // elements inside whatever the document element happens to be.
  let root: Element | null = document.documentElement;
  if (root?.localName !== 'html') {
    root = document.createElement('html');
    for (const node of Array.from(document.childNodes)) {
      if (node.nodeType !== DOCUMENT_TYPE_NODE) root.appendChild(node);
    }
    document.appendChild(root);
  }
  const children = Array.from(root.children);
  let head = children.find((child) => child.localName === 'head');
  let body = children.find((child) => child.localName === 'body');
  if (!body) {
    body = document.createElement('body');
    for (const node of Array.from(root.childNodes)) {
      if (node !== head) body.appendChild(node);
    }
    root.appendChild(body);
  }
  if (!head) {
    head = document.createElement('head');
    root.insertBefore(head, body);
  }
}
