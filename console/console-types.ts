/** The shapes server/console/ answers with (console-job-reader.ts, console-instance.ts). */
export interface ConsoleJob {
  id: string;
  teamId: string;
  kind: string;
  status: 'scraping' | 'completed' | 'failed' | 'cancelled';
  url: string | null;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: string;
  updatedAt: string;
  error: string | null;
}

export interface ConsolePage {
  id: string;
  url: string;
  state: 'queued' | 'leased' | 'done' | 'failed' | 'cancelled';
  attempts: number;
  error: string | null;
  code: string | null;
  updatedAt: string;
}

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
