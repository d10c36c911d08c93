/**
 * Puts server-rendered content that streaming SSR parked out of sight back where it belongs, as
 * the page's inline scripts would in a browser. React (and frameworks on it, such as Next.js)
 * stream a boundary's content late in the document as `<div hidden id="S:n">` and leave a
 * placeholder where it goes: `<!--$?--><template id="B:n"></template>fallback<!--/$-->` for a
 * Suspense boundary (the `$RC` script swaps the fallback for the content) or `<template id="P:n">`
 * for a segment (`$RS`). Without scripts the content stays hidden, and a reader of the HTML alone
 * (the HTTP fast path) would drop it with everything else `hidden`.
 *
 * The script calls name which container goes where; without them the numbers pair up (S:n with
 * B:n or P:n). Containers whose placeholder cannot be found are shown where they are.
 */
export function revealStreamedContent(document: Document): void {
  const parked = Array.from(document.querySelectorAll('div[hidden][id^="S:"]'));
  if (parked.length === 0) return;
  const targets = scriptedTargets(document);
  for (const container of parked) {
    const suffix = container.id.slice(2);
    const placeholderId = targets.get(container.id);
    const placeholder =
      (placeholderId === undefined ? null : document.getElementById(placeholderId)) ??
      document.getElementById(`B:${suffix}`) ??
      document.getElementById(`P:${suffix}`);
    if (placeholder === null || placeholder.contains(container)) {
      container.removeAttribute('hidden');
      continue;
    }
    const nodes = Array.from(container.childNodes);
    if (placeholder.id.startsWith('B:')) replaceBoundary(placeholder, nodes);
    else placeholder.replaceWith(...nodes);
    container.remove();
  }
}

/** `$RC("B:0","S:0")` completes a boundary and `$RS("S:1","P:1")` a segment; read both ways round. */
function scriptedTargets(document: Document): Map<string, string> {
  const targets = new Map<string, string>();
  for (const script of Array.from(document.querySelectorAll('script:not([src])'))) {
    const text = script.textContent ?? '';
    if (!text.includes('$R')) continue;
    for (const [, first = '', second = ''] of text.matchAll(
      /\$R[CSX]\w*\(\s*"([BSP]:[\w-]+)"\s*,\s*"([BSP]:[\w-]+)"/g,
    )) {
      if (first.startsWith('S:')) targets.set(first, second);
      else targets.set(second, first);
    }
  }
  return targets;
}

const COMMENT_NODE = 8;

/**
 * The boundary's fallback runs from the template to the `/$` comment that closes it (nested
 * boundaries open with `$`, `$?` or `$!`); it goes, and the content takes its place. Without that
 * comment (saved snapshots and some proxies strip comments) where the fallback ends is unknown:
 * only the template is replaced, and the siblings after it, which may be the rest of the page, stay.
 */
function replaceBoundary(template: Element, nodes: Node[]): void {
  const parent = template.parentNode;
  if (parent === null) return;
  const end = boundaryEnd(template);
  if (end === undefined) {
    template.replaceWith(...nodes);
    return;
  }
  let node: ChildNode | null = template;
  while (node !== null && node !== end) {
    const next: ChildNode | null = node.nextSibling;
    node.remove();
    node = next;
  }
  for (const child of nodes) parent.insertBefore(child, end);
}

/** The `/$` comment that closes the boundary `template` opens, or undefined when there is none. */
function boundaryEnd(template: Element): ChildNode | undefined {
  let depth = 0;
  for (let node = template.nextSibling; node !== null; node = node.nextSibling) {
    if (node.nodeType !== COMMENT_NODE) continue;
    const data = (node as Comment).data;
    if (data === '/$') {
      if (depth === 0) return node;
      depth -= 1;
    } else if (data === '$' || data === '$?' || data === '$!') depth += 1;
  }
  return undefined;
}
