/** The shapes server/api/console/ answers with: the server's own types, erased from the bundle. */
export type { ConsoleJob, ConsolePage } from '../server/api/console/console-job-reader';
export type { ConsoleBrowser, ConsoleOverview } from '../server/api/console/console-instance';
export type { ConsoleFigure, ConsoleFigureHistory } from '../server/api/console/console-figures';

/** A scrape result document as the API returns it (the fields the console shows). */
export interface ScrapeDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  screenshot?: string;
  links?: string[];
  json?: unknown;
  summary?: string;
  metadata?: Record<string, unknown>;
  [format: string]: unknown;
}
