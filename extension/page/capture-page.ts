/** What the in-page capture returns. */
export interface InPageCapture {
  url: string;
  rawHtml: string;
  renderedHtml: string;
  documentContentType: string;
}

/**
 * Runs inside the page (serialised with toString and evaluated through the debugger), so it must
 * be self-contained: no imports, no outer variables. It serialises the DOM twice: as it is, and
 * with the elements a reader cannot see (display:none, visibility:hidden) left out, which is what
 * Markdown should be made of. The walk is iterative because some pages nest thousands deep.
 */
export function capturePage(): InPageCapture {
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
  };
}
