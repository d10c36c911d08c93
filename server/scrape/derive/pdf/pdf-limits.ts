/**
 * What reading one PDF may cost. A PDF is small on the wire and may hold anything once inflated:
 * a 1.4 MB file can inflate to 400 MB of text operators, and a 16 MB one can have 100,000 pages.
 */
export interface PdfLimits {
  /** Pages read when the caller gives no `maxPages` (the rest are left, as `maxPages` leaves them). */
  defaultMaxPages: number;
  /** Characters of text read from the whole document; beyond them it is refused. */
  maxTextChars: number;
  /** Bytes its Flate streams may inflate to together; beyond them it is refused before it is read. */
  maxInflatedBytes: number;
  /**
   * Time spent reading pages, after which no further page is read (the document is cut there, as
   * `maxPages` cuts it): pdf.js finds a page in time that grows with the page count, so that the
   * thousandth page of a 100,000-page document takes tens of milliseconds to reach.
   */
  maxReadMs: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  defaultMaxPages: 1_000,
  maxTextChars: 8 * 1024 * 1024,
  maxInflatedBytes: 256 * 1024 * 1024,
  maxReadMs: 20_000,
};
