/**
 * Gives a linkedom tree the shape Chromium's HTML parser would have built for the same markup
 * where linkedom keeps the markup as written (it does not run the HTML5 tree-construction rules),
 * so the fast path's `html` format matches the browser's:
 * - whatever follows `</body>` or `</html>` (the usual trailing newlines) belongs to the body;
 * - table rows written straight into a `<table>` sit in an implied `<tbody>`.
 */
export function repairLikeBrowser(document: Document): void {
  const root = document.documentElement;
  const body = document.body;
  for (const node of [...siblingsAfter(body), ...siblingsAfter(root)]) {
    // Comments after the body stay where they are in a browser too; nobody reads them anyway.
    if (node.nodeType !== COMMENT_NODE) body.appendChild(node);
  }
  for (const table of Array.from(body.querySelectorAll('table'))) wrapRowsInTbody(document, table);
}

function siblingsAfter(node: Node): Node[] {
  const nodes: Node[] = [];
  for (let next = node.nextSibling; next !== null; next = next.nextSibling) nodes.push(next);
  return nodes;
}

/** A run of rows (and the text between them) directly in a table goes into one implied tbody. */
function wrapRowsInTbody(document: Document, table: Element): void {
  let tbody: Element | undefined;
  for (const child of Array.from(table.childNodes)) {
    const isRow = child.nodeType === ELEMENT_NODE && (child as Element).localName === 'tr';
    if (isRow && tbody === undefined) {
      tbody = document.createElement('tbody');
      table.insertBefore(tbody, child);
    }
    if (tbody !== undefined && (isRow || child.nodeType === TEXT_NODE)) tbody.appendChild(child);
    else if (child.nodeType === ELEMENT_NODE) tbody = undefined;
  }
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const COMMENT_NODE = 8;
