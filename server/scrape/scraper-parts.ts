import type { BrowserClass, PageCapture, PageTaskSpec } from '../../shared/protocol/messages';
import type { DonatedRoutes, RunOptions } from '../browsers/hub';
import type { LlmProvider } from '../platform/llm';
import type { Log } from '../platform/log';
import type {
  BrowserProfileStore,
  ChangeSnapshotStore,
  CreditLedgerStore,
  ResultStore,
} from '../platform/store';
import type { TeamLimits } from '../platform/teams';
import type { UrlPolicy } from '../platform/url-policy';
import type { BrowserSlots } from './admit';
import type { CachedCapture, HttpFastPath } from './capture';
import type { DerivationMemo, PageDerivation, PageDeriveOptions } from './derive';
import type { TaskChallengeSignals } from './types';
import type { ScrapeMetrics, InteractOptionsMemory, MapIndexSink, SearchIndexSink } from './emit';

/** What the scraper is made of (create-scraper.ts): each stage's services, given once. */
export interface ScraperParts {
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  /**
   * Which of a team's URLs only one of its donated browsers may take (an intranet name its owner
   * allowed): those go there alone, before anything resolves their name. Without it, none do.
   */
  donatedRoutes?: DonatedRoutes | undefined;
  urlPolicy: UrlPolicy;
  cachedCapture: CachedCapture;
  results: ResultStore;
  log: Log;
  /** Connected browsers of a class, for `proxy` routing. */
  connectedBrowsers?: ((browserClass: BrowserClass) => number) | undefined;
  /**
   * How long a donated browser waits for its person to pass a challenge page (CHALLENGE_WAIT_MS),
   * and a launched one for an operator when the scrape's caller has one (ScrapeContext.onChallenge).
   */
  challengeWaitMs?: number | undefined;
  /** The browsers' challenge events (the hub's), for the launched browsers' wait. */
  taskChallenges?: TaskChallengeSignals | undefined;
  /** The LLM formats' model; without one they use their built-in methods. */
  llm?: LlmProvider | undefined;
  changeSnapshots?: ChangeSnapshotStore | undefined;
  /** Learns every scraped page (URL, title, description, links) for /map. */
  mapIndex?: MapIndexSink | undefined;
  /** The team's local search index, which every successful page joins unless zeroDataRetention forbids it. */
  searchIndex?: SearchIndexSink | undefined;
  /** Formats from a capture; the server passes its worker pool, tests may leave the inline default. */
  derive?: ((capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>) | undefined;
  /** Pages that need no browser over HTTP (HTTP_FAST_PATH); without it every page takes a browser. */
  fastPath?: HttpFastPath | undefined;
  /** Formats made from cache entries, reused while the entry is hot. */
  derivations?: DerivationMemo | undefined;
  /** The teams' named browser profiles (the `profile` option); required for such scrapes. */
  browserProfiles?: BrowserProfileStore | undefined;
  /** The teams' concurrency slots, held by the admissions that take one; without them, none is. */
  teamLimits?: Pick<TeamLimits, 'admit'> | undefined;
  /** The credit ledger the admissions that book a page reserve on; without it, nothing is booked. */
  creditLedger?: CreditLedgerStore | undefined;
  /** The browser tabs job pages may hold at once; without them, job pages only run in the background. */
  jobBrowserSlots?: BrowserSlots | undefined;
  /** Pages scraped and their durations, by source and engine; without it, nothing is counted. */
  metrics?: ScrapeMetrics | undefined;
  /** The page settings of API scrapes, for `POST /v2/scrape/:id/interact`. */
  interactOptions?: InteractOptionsMemory | undefined;
}
