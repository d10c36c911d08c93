import { extractText, getDocumentProxy, getMeta } from 'unpdf';

export interface PdfText {
  markdown: string;
  numPages: number;
  title?: string;
}

/**
 * The text of a PDF as Markdown, page after page, with pdf.js (through unpdf, which bundles a
 * build that needs no canvas or native module). PDFs carry positioned glyph runs, not structure:
 * lines are kept as pdf.js joins them, and blank lines separate pages, so a reader or an LLM gets
 * the reading order without invented headings.
 */
export async function pdfToMarkdown(bytes: Uint8Array): Promise<PdfText> {
  const pdf = await getDocumentProxy(bytes);
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    const info = (await getMeta(pdf).catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const markdown = text
      .map((page) =>
        page
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
      )
      .filter((page) => page !== '')
      .join('\n\n');
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : undefined;
    return { markdown, numPages: totalPages, ...(title === undefined ? {} : { title }) };
  } finally {
    await pdf.cleanup();
  }
}
