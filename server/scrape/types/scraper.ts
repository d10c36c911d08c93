import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { PageDerivation, PageDeriveOptions } from '../derive';
import type { PageChallengeHandler } from './page-challenge';
import type { ScrapeDocument } from './scrape-document';

/**
 * Who asks for a page, which decides how it is admitted, booked and scheduled (admit/admission-rules.ts):
 * - `api`: a single scrape of the API (routes, MCP, `/v2/parse`): holds a team concurrency slot,
 *   its credits are reserved and settled, its page settings are remembered for interact.
 * - `product-job`: a page of an extract, agent or llms.txt job: a job page (job browser slots,
 *   background priority) admitted and booked as a scrape (team slot, credits).
 * - `monitor-check`: a page of a monitor's check: a job page booked as a scrape, without a team slot.
 * - `job-page`: a crawl or batch page: a job page the job runner books under its own key.
 * - `product-request`: a page a search or map request needs while its caller waits: the product
 *   admits and bills the request, the page is neither slotted nor booked.
 */
export type ScrapeAdmission = 'api' | 'product-job' | 'monitor-check' | 'job-page' | 'product-request';

export interface Scraper {
  scrape(request: ScrapeRequestV2, context: ScrapeContext): Promise<ScrapeDocument>;
}

export interface ScrapeContext {
  teamId: string;
  /** Who asks: team slot, credits, job browser slots and metrics follow from it. */
  admission: ScrapeAdmission;
  /** Jobs give each page a scrape id derived from its task, so a page that runs twice is one result. */
  scrapeId?: string;
  /** Jobs store the result themselves, under the job and its order. */
  keepResult?: boolean;
  /**
   * Sees the capture (crawls discover links in its raw HTML, docs/wire-contract.md §3.5); with `pageLinks`, also
   * the raw HTML's links, read where the formats were derived.
   */
  onCapture?: (capture: PageCapture, pageLinks: string[] | undefined) => void;
  /** Read every link of the page's raw HTML, for `onCapture` and the map index (crawls). */
  pageLinks?: boolean;
  /**
   * False for pages that are not content of their own (a search engine's result page): they join
   * neither the search index nor the map index.
   */
  indexPage?: boolean;
  /** Skip the HTTP fast path: search engines answer plain HTTP clients with captchas, not results. */
  browserOnly?: boolean;
  /**
   * The page is already in hand (an uploaded document, `/v2/parse`): no URL policy, no cache and no
   * fetch; the formats are made from this capture as from any other.
   */
  capture?: PageCapture;
  /**
   * The caller can come back for the result (the scrape route, api/http/continued-work.ts): a
   * document still being read at the timeout goes on, and the scrape fails with WorkContinues.
   */
  continuable?: boolean;
  /**
   * Someone may pass a challenge page the page meets in a launched browser (a crawl's or batch's
   * webhook, told with a live view URL): its task then waits CHALLENGE_WAIT_MS for the page to
   * clear. Without it a challenge page fails the scrape at once, as every block page does.
   */
  onChallenge?: PageChallengeHandler;
  /** Makes the formats of `capture` elsewhere than `derive` (an upload's, in the document pool). */
  derive?: (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>;
}
