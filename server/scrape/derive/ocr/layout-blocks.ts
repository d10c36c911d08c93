import type { PageBlockItem, PageBlocks } from '../../../../shared/api/responses/page-blocks';

export type BlockItem = PageBlockItem;
export type BlockType = PageBlockItem['type'];
export type { PageBlocks };

/** A paragraph as a reader of the page found it, before it is typed: OCR's or the text layer's. */
export interface LayoutParagraph {
  bbox: [number, number, number, number];
  /** Each line's text, its height (the type size), and its box where the reader gave one. */
  lines: Array<{ text: string; height: number; bbox?: [number, number, number, number] }>;
  /** OCR's confidence, 0–1; null for text from the text layer. */
  confidence: number | null;
}

const LIST_MARKER = /^\s*(?:[-•*–▪◦]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/;

/**
 * Types the paragraphs of one page and writes its Markdown. A heading is a paragraph of at most
 * two lines whose lines stand at least 1.3 times as tall as the page's usual line (h1 at twice);
 * a list is a paragraph whose every line opens with a bullet or a number. Tables are not
 * recognised: a table's cells come out as paragraphs in reading order.
 */
export function typeParagraphs(
  paragraphs: readonly LayoutParagraph[],
  source: 'ocr' | 'text-layer',
  pageNumber: number,
): { markdown: string; items: BlockItem[] } {
  const heights = paragraphs.flatMap((paragraph) => paragraph.lines.map((line) => line.height));
  const usual = median(heights);
  const items: BlockItem[] = [];
  const parts: string[] = [];
  for (const paragraph of paragraphs.flatMap(splitAtSizeChange)) {
    const lines = paragraph.lines.map((line) => line.text.trim()).filter((line) => line !== '');
    if (lines.length === 0) continue;
    const height = Math.max(...paragraph.lines.map((line) => line.height));
    let type: BlockType = 'paragraph';
    let label: string | null = null;
    let content: string;
    if (usual > 0 && lines.length <= 2 && height >= usual * 1.3) {
      type = 'heading';
      label = height >= usual * 2 ? 'h1' : 'h2';
      content = `${label === 'h1' ? '#' : '##'} ${lines.join(' ')}`;
    } else if (lines.length > 0 && lines.every((line) => LIST_MARKER.test(line))) {
      type = 'list';
      content = lines.map((line) => `- ${line.replace(LIST_MARKER, '')}`).join('\n');
    } else {
      // The text layer's lines stay as the page's Markdown keeps them, so the block is found in it.
      content = source === 'text-layer' ? lines.join('\n') : joinLines(lines);
    }
    parts.push(content);
    items.push({
      id: `p${pageNumber}-b${items.length}`,
      type,
      label,
      bbox: paragraph.bbox.map((value) => Math.round(value * 100) / 100) as [number, number, number, number],
      content,
      markdownSpan: null,
      readingOrder: items.length,
      source,
      confidence: {
        layout: null,
        ocr: paragraph.confidence === null ? null : Math.round(paragraph.confidence * 1000) / 1000,
      },
    });
  }
  return { markdown: parts.join('\n\n'), items };
}

/**
 * A paragraph whose type size changes from one line to the next (OCR sometimes joins a heading
 * to the paragraph under it) as one paragraph per run of lines of one size, where the lines have boxes.
 */
function splitAtSizeChange(paragraph: LayoutParagraph): LayoutParagraph[] {
  const { lines } = paragraph;
  if (lines.length < 2 || lines.some((line) => line.bbox === undefined)) return [paragraph];
  const runs: Array<LayoutParagraph['lines']> = [];
  for (const line of lines) {
    const run = runs[runs.length - 1];
    const previous = run?.[run.length - 1];
    const ratio =
      previous === undefined
        ? 1
        : Math.max(line.height, previous.height) / Math.max(1, Math.min(line.height, previous.height));
    if (run === undefined || ratio >= 1.3) runs.push([line]);
    else run.push(line);
  }
  if (runs.length === 1) return [paragraph];
  return runs.map((run) => ({
    confidence: paragraph.confidence,
    lines: run,
    bbox: run.reduce<[number, number, number, number]>(
      (box, line) => {
        const [left, top, right, bottom] = line.bbox ?? box;
        return [
          Math.min(box[0], left),
          Math.min(box[1], top),
          Math.max(box[2], right),
          Math.max(box[3], bottom),
        ];
      },
      [Infinity, Infinity, -Infinity, -Infinity],
    ),
  }));
}

/** Lines of one paragraph as one: a word broken with a hyphen at a line's end is joined again. */
function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') text = line;
    else if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(line)) text = text.slice(0, -1) + line;
    else text += ` ${line}`;
  }
  return text;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
