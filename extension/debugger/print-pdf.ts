import type { CdpSession } from './cdp-session';

export type PaperFormat =
  'A0' | 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'Letter' | 'Legal' | 'Tabloid' | 'Ledger';

/** Paper sizes in inches (width × height, portrait), as Page.printToPDF takes them. */
export const PAPER_SIZES_IN: Record<PaperFormat, readonly [number, number]> = {
  A0: [33.1, 46.8],
  A1: [23.4, 33.1],
  A2: [16.54, 23.4],
  A3: [11.7, 16.54],
  A4: [8.27, 11.7],
  A5: [5.83, 8.27],
  A6: [4.13, 5.83],
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  Tabloid: [11, 17],
  Ledger: [17, 11],
};

/**
 * The page as a PDF data URL. Self-hosted Tabhive has no file host, so `actions.pdfs[]` carries
 * the document itself rather than a link to it (docs/wire-contract.md §3.2).
 */
export async function printPdf(
  cdp: CdpSession,
  { format, landscape, scale }: { format: PaperFormat; landscape: boolean; scale: number },
): Promise<string> {
  const [paperWidth, paperHeight] = PAPER_SIZES_IN[format];
  const { data } = await cdp.send<{ data: string }>('Page.printToPDF', {
    landscape,
    scale,
    paperWidth,
    paperHeight,
    printBackground: true,
  });
  return `data:application/pdf;base64,${data}`;
}
