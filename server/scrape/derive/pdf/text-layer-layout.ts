import type { LayoutParagraph } from '../ocr/layout-blocks';

/** A text run as pdf.js gives it: its string, transform (PDF user space, y up) and size. */
export interface TextRun {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/**
 * The paragraphs of a page's text layer, for `blocks`: runs on one baseline make a line, and
 * lines make a paragraph until the gap to the next is over half a line more than the usual, or
 * the type size changes. Coordinates go from PDF user space (y up) to the page's top-left corner.
 */
export function textLayerParagraphs(runs: readonly TextRun[], pageHeight: number): LayoutParagraph[] {
  interface Line {
    text: string;
    left: number;
    right: number;
    top: number;
    bottom: number;
    size: number;
  }
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const run of runs) {
    const size = Math.hypot(run.transform[2] ?? 0, run.transform[3] ?? 0) || run.height;
    const x = run.transform[4] ?? 0;
    const baseline = pageHeight - (run.transform[5] ?? 0);
    const sameLine = current !== undefined && Math.abs(current.bottom - baseline) < size * 0.5;
    if (run.str !== '') {
      if (current === undefined || !sameLine) {
        current = {
          text: run.str,
          left: x,
          right: x + run.width,
          top: baseline - size,
          bottom: baseline,
          size,
        };
        lines.push(current);
      } else {
        current.text += run.str;
        current.left = Math.min(current.left, x);
        current.right = Math.max(current.right, x + run.width);
        current.top = Math.min(current.top, baseline - size);
        current.size = Math.max(current.size, size);
      }
    }
    if (run.hasEOL) current = undefined;
  }
  const paragraphs: LayoutParagraph[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    if (line.text.trim() === '') continue;
    const last = paragraphs[paragraphs.length - 1];
    const gap = previous === undefined ? Infinity : line.top - previous.bottom;
    const joins =
      last !== undefined &&
      previous !== undefined &&
      Math.abs(line.size - previous.size) < 0.5 &&
      gap >= -line.size &&
      gap < line.size * 0.8;
    if (joins) {
      last.lines.push({
        text: line.text,
        height: line.size,
        bbox: [line.left, line.top, line.right, line.bottom],
      });
      last.bbox = [
        Math.min(last.bbox[0], line.left),
        Math.min(last.bbox[1], line.top),
        Math.max(last.bbox[2], line.right),
        Math.max(last.bbox[3], line.bottom),
      ];
    } else {
      paragraphs.push({
        bbox: [line.left, line.top, line.right, line.bottom],
        lines: [{ text: line.text, height: line.size, bbox: [line.left, line.top, line.right, line.bottom] }],
        confidence: null,
      });
    }
    previous = line;
  }
  return paragraphs;
}
