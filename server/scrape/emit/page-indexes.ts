/**
 * The indexes every scraped page may join, as ports: the scrape wing says what it hands over, the
 * products that own the indexes implement them (products/map/create-map-index-recorder.ts,
 * products/search/search-index-sink.ts) and the composition root passes them to the scraper.
 */

/** A scraped page as /map learns it: its URL, title, description and links. */
export interface PageForMapIndex {
  url: string;
  title?: string | undefined;
  description?: string | undefined;
  /** Absolute links found on the page. */
  links?: readonly string[] | undefined;
  /** The team whose request saw the page. */
  teamId: string;
  /** Whether anyone asking for the URL would see the same page (nothing of the team shaped it). */
  shared: boolean;
}

export interface MapIndexSink {
  /** Learns the page; resolves once written, never rejects (the recorder logs what it could not write). */
  recordPage(page: PageForMapIndex): Promise<void>;
}

/** A scraped page as the team's local search index takes it. */
export interface PageForSearchIndex {
  teamId: string;
  url: string;
  title: string;
  description?: string | undefined;
  markdown: string;
}

export interface SearchIndexSink {
  /** Adds the page to its team's index, replacing an earlier version of the URL. */
  addPage(page: PageForSearchIndex): Promise<void>;
}
