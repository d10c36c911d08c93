/** Where an element sat on the page, in document pixels (CSS pixels from the document's top left). */
export interface LayoutBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How an element was positioned: fixed or sticky to the viewport, or out of sight (screen-reader-only). */
export type LayoutPosition = 'fixed' | 'sticky' | 'offscreen';

/** The layout facts the extension's capture wrote on its rendered HTML (extension/page/capture-page.ts). */
export interface PageLayout {
  viewportWidth: number;
  viewportHeight: number;
  documentWidth: number;
  documentHeight: number;
  /** Where the viewport was scrolled to when the page was captured (after scroll actions, say). */
  scrollX: number;
  scrollY: number;
  /** The boxed elements: containers and layout columns. Others sit in their nearest boxed ancestor's box. */
  boxes: Map<Element, LayoutBox>;
  /** In document order. */
  positions: Map<Element, LayoutPosition>;
}

/**
 * On `<html>`: `viewportWidth,viewportHeight,documentWidth,documentHeight,scrollX,scrollY`; says
 * the facts are there.
 */
export const LAYOUT_ATTRIBUTE = 'data-tabhive-layout';
/** `x,y,width,height` */
export const BOX_ATTRIBUTE = 'data-tabhive-box';
export const POSITION_ATTRIBUTE = 'data-tabhive-pos';

const POSITIONS = new Set<string>(['fixed', 'sticky', 'offscreen']);

/**
 * Reads the layout facts off a rendered document and removes their attributes, so that nothing
 * made from the document shows them. Undefined, with the document untouched, when `<html>` does
 * not carry {@link LAYOUT_ATTRIBUTE}: a page fetched without a browser, a capture from before the
 * facts, or hand-written HTML. (Attributes of these names such a page has are its own and stay.)
 */
export function takeLayoutAnnotations(document: Document): PageLayout | undefined {
  const root = document.documentElement;
  const summary = root?.getAttribute(LAYOUT_ATTRIBUTE);
  if (summary == null) return undefined;
  root.removeAttribute(LAYOUT_ATTRIBUTE);
  const [
    viewportWidth = 0,
    viewportHeight = 0,
    documentWidth = 0,
    documentHeight = 0,
    scrollX = 0,
    scrollY = 0,
  ] = numbers(summary);
  const layout: PageLayout = {
    viewportWidth,
    viewportHeight,
    documentWidth: Math.max(documentWidth, viewportWidth),
    documentHeight: Math.max(documentHeight, viewportHeight),
    scrollX,
    scrollY,
    boxes: new Map(),
    positions: new Map(),
  };
  for (const element of document.querySelectorAll(`[${BOX_ATTRIBUTE}], [${POSITION_ATTRIBUTE}]`)) {
    const box = element.getAttribute(BOX_ATTRIBUTE);
    const position = element.getAttribute(POSITION_ATTRIBUTE);
    element.removeAttribute(BOX_ATTRIBUTE);
    element.removeAttribute(POSITION_ATTRIBUTE);
    const values = box === null ? [] : numbers(box);
    if (values.length === 4) {
      const [x, y, width, height] = values as [number, number, number, number];
      layout.boxes.set(element, { x, y, width, height });
    }
    if (position !== null && POSITIONS.has(position)) {
      layout.positions.set(element, position as LayoutPosition);
    }
  }
  return layout;
}

/** The element's box, or, for one the capture did not box (it repeated its parent's), its nearest boxed ancestor's. */
export function boxOf(layout: PageLayout, element: Element): LayoutBox | undefined {
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    const box = layout.boxes.get(node);
    if (box !== undefined) return box;
  }
  return undefined;
}

function numbers(text: string): number[] {
  const values = text.split(',').map(Number);
  return values.every(Number.isFinite) ? values : [];
}
