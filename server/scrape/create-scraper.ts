import { randomUUID } from 'node:crypto';
import { actionWaitMs } from '../../shared/api/v2/actions';
import type { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';
import type { BasicFormat } from '../../shared/formats/derive-formats';
import { InvalidSelectorError, validateSelectors } from '../../shared/html/clean-html';
import type { BrowserClass, PageCapture, PageTaskSpec } from '../../shared/protocol/messages';
import type { RunOptions, TaskPriority } from '../browsers/hub/task-scheduler';
import { errors } from '../platform/errors/errors';
import type { LlmProvider } from '../platform/llm/llm-provider';
import type { MapIndexRecorder } from '../products/map/create-map-index-recorder';
import { urlForLog, type Log } from '../platform/log/log';
import type { ChangeSnapshotStore } from '../platform/store/stores/change-snapshot-store';
import type { ResultStore } from '../platform/store/stores/result-store';
import type { SearchIndexStore } from '../platform/store/stores/search-index-store';
import { addPageToSearchIndex } from '../products/search/add-page-to-search-index';
import type { UrlPolicy } from '../platform/url-policy/create-url-policy';
import { PUBLIC_SCOPE } from '../platform/store/stores/cache-store';
import type { CachedCapture, CaptureOutcome } from './cached-capture';
import { mayShareBrowserCapture, seenAsAnyoneWould } from './cache-policy';
import { browserOutputs, proxyMetadata } from './browser-outputs';
import { LLM_FORMATS, llmFormats } from './formats/llm-formats';
import { requestSchemas } from './formats/request-schemas';
import { refuseImageForOcr } from './formats/image-parser';
import { pageReadsRequest } from './formats/page-reads';
import { READ_FORMATS, readFormats } from './formats/read-formats';
import { requestedParsers } from './pdf/requested-parsers';
import { extractsJson, scrapeCredits } from './scrape-credits';
import { enhancedClass, runWithProxy } from './run-with-proxy';
import { redactDocument } from './redact/redact-document';
import { servesFromCacheOnly } from '../../shared/api/v2/cache-only';
import { redactionSettings } from '../../shared/api/v2/redact-pii';
import { classifyHost } from '../../shared/url/classify-host';
import type { HttpFastPath } from './fast-path/create-http-fast-path';
import { fastPathEligible } from './fast-path/fast-path-eligible';
import { looksBlocked } from './looks-blocked';
import type { ScrapeDocument } from './scrape-document';
import { taskSpecFromRequest } from './task-spec-from-request';
import { taskErrorToApiError } from './task-error-to-api-error';
import type { TaskError } from '../browsers/hub/task-error';
import { derivePage, type PageDerivation, type PageDeriveOptions } from './derive/derive-page';
import { createDerivationMemo, deriveOptionsKey, type DerivationMemo } from './derivation-memo';
import { LOADING_PLACEHOLDER_WARNING } from './loading-placeholder';
import { createRecentWrites } from './recent-writes';
import type { BrowserProfileStore } from '../platform/store/stores/browser-profile-store';
import { openBrowserProfile } from './browser-profile-use';
import { withScrapeDeadline } from './derive/scrape-deadline';

/** v2 has no timeout default; Firecrawl's engines stop at 5 minutes, and so do we (contract §3.4). */
export const DEFAULT_SCRAPE_TIMEOUT_MS = 300_000;

const BASIC_FORMATS = new Set<string>(['markdown', 'html', 'rawHtml', 'links', 'images']);
/** Formats the browser makes while it has the page (browser-outputs.ts). */
const BROWSER_FORMATS = new Set<string>(['screenshot', 'branding']);

function rethrowSelectorError(err: unknown): never {
  if (err instanceof InvalidSelectorError) throw errors.invalidSelector(err.selector);
  throw err;
}

function rethrowSelectorErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof InvalidSelectorError) throw errors.invalidSelector(err.selector);
    throw err;
  }
}

export interface Scraper {
  scrape(request: ScrapeRequestV2, context: ScrapeContext): Promise<ScrapeDocument>;
}

export interface ScrapeContext {
  teamId: string;
  /** Jobs give each page a scrape id derived from its task, so a page that runs twice is one result. */
  scrapeId?: string;
  /** Jobs store the result themselves, under the job and its order. */
  keepResult?: boolean;
  /**
   * Sees the capture (crawls discover links in its raw HTML, contract §3.5); with `pageLinks`, also
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
  /** `background` for job pages: a browser task someone waits for goes first (task-scheduler.ts). */
  priority?: TaskPriority;
  /**
   * The page is already in hand (an uploaded document, `/v2/parse`): no URL policy, no cache and no
   * fetch; the formats are made from this capture as from any other.
   */
  capture?: PageCapture;
  /** Makes the formats of `capture` elsewhere than `derive` (an upload's, in the document pool). */
  derive?: (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>;
}

/**
 * One scrape, end to end: URL policy, the cache or a page task on a browser, formats derived from
 * the capture, the result kept for `GET /v2/scrape/:id`.
 */
export function createScraper({
  runTask,
  donatedCovers = () => false,
  urlPolicy,
  cachedCapture,
  results,
  log,
  connectedBrowsers,
  llm,
  changeSnapshots,
  mapIndex,
  searchIndex,
  derive = derivePage,
  fastPath,
  derivations = createDerivationMemo(),
  browserProfiles,
}: {
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  /** Whether one of the team's donated browsers is connected and takes tasks for the URL. */
  donatedCovers?: (teamId: string, url: string) => boolean;
  urlPolicy: UrlPolicy;
  cachedCapture: CachedCapture;
  results: ResultStore;
  log: Log;
  /** Connected browsers of a class, for `proxy` routing. */
  connectedBrowsers?: (browserClass: BrowserClass) => number;
  /** The LLM formats' model; without one they use their built-in methods. */
  llm?: LlmProvider | undefined;
  changeSnapshots?: ChangeSnapshotStore;
  /** Learns every scraped page (URL, title, description, links) for /map. */
  mapIndex?: MapIndexRecorder;
  /** The team's local search index, which every successful page joins unless zeroDataRetention forbids it. */
  searchIndex?: SearchIndexStore;
  /** Formats from a capture; the server passes its worker pool, tests may leave the inline default. */
  derive?: (capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>;
  /** Pages that need no browser over HTTP (HTTP_FAST_PATH); without it every page takes a browser. */
  fastPath?: HttpFastPath | undefined;
  /** Formats made from cache entries, reused while the entry is hot. */
  derivations?: DerivationMemo;
  /** The teams' named browser profiles (the `profile` option); required for such scrapes. */
  browserProfiles?: BrowserProfileStore;
}): Scraper {
  const indexWrites = createRecentWrites();
  // Every scrape answers within its timeout, whatever path it takes (scrape-deadline.ts).
  return withScrapeDeadline({
    async scrape(request, context) {
      const {
        teamId,
        scrapeId,
        keepResult = true,
        onCapture,
        indexPage = true,
        browserOnly = false,
      } = context;
      const target = new URL(request.url.url);
      // A bad selector is the caller's mistake: say so before spending a browser on the page.
      const selectors = [
        ...(request.includeTags ?? []),
        ...(request.excludeTags ?? []),
        ...request.formats.flatMap((format) =>
          format.type === 'attributes' ? format.selectors.map(({ selector }) => selector) : [],
        ),
      ];
      if (selectors.length > 0) rethrowSelectorErrors(() => validateSelectors(selectors));
      const schemas = requestSchemas(request);
      const given = context.capture;
      // A cache-only request (lockdown, minAge) never reaches the site, so a public name is not even
      // looked up; a local name or address is still judged against today's policy.
      const cacheOnly = servesFromCacheOnly(request);
      const redaction = redactionSettings(request.redactPII);
      const checked = given === undefined && !(cacheOnly && classifyHost(target).kind === 'needs-dns');
      const verdict = checked ? await urlPolicy.check(target) : { allowed: true as const };
      if (!verdict.allowed) {
        throw verdict.reason === 'dns'
          ? errors.dnsResolution(target.hostname)
          : errors.urlBlocked(verdict.message);
      }

      const requested = request.formats.map((format) => format.type);
      const formats = new Set(requested.filter((type): type is BasicFormat => BASIC_FORMATS.has(type)));
      const unsupported = [
        ...new Set(
          requested.filter(
            (type) =>
              !BASIC_FORMATS.has(type) &&
              !BROWSER_FORMATS.has(type) &&
              !LLM_FORMATS.has(type) &&
              !READ_FORMATS.has(type),
          ),
        ),
      ];
      // json, summary, highlights, question… read the page's Markdown even when it was not asked for.
      const needsText = requested.some((type) => LLM_FORMATS.has(type));
      const parsers = requestedParsers(request.parsers);
      // attributes, audio, video, product and menu read the page's HTML in the derivation worker.
      const reads = pageReadsRequest(request.formats);
      // The search index reads the page's Markdown too, so it is derived even when not asked for.
      const indexes =
        searchIndex !== undefined &&
        indexPage &&
        request.zeroDataRetention !== true &&
        redaction === undefined;
      const deriveOptions: PageDeriveOptions = {
        formats: needsText || indexes ? new Set([...formats, 'markdown' as const]) : formats,
        onlyMainContent: request.onlyMainContent,
        includeTags: request.includeTags,
        excludeTags: request.excludeTags,
        removeBase64Images: request.removeBase64Images,
        parsePdf: parsers.pdf !== undefined,
        ...(parsers.pdf === undefined || Object.keys(parsers.pdf).length === 0 ? {} : { pdf: parsers.pdf }),
        ...(reads === undefined ? {} : { reads }),
        // json without a model fills the schema from the page; the worker reads what it states.
        pageFacts: extractsJson(request.formats) && (llm === undefined || request.zeroDataRetention === true),
        pageLinks: context.pageLinks === true,
      };

      // The team's logged-in browser takes this URL: no anonymous fetch, no anonymous cached copy.
      const donated = donatedCovers(teamId, target.href);
      // A profile's page shows the profile's login: a launched browser only, never the fast path
      // or the cache (cache-policy.ts), and what it changed is saved back (browser-profile-use.ts).
      const profile =
        given === undefined && request.profile !== undefined
          ? await openBrowserProfile(browserProfiles, teamId, request.profile, log)
          : undefined;
      let fastDerived: { capture: PageCapture; derived: PageDerivation } | undefined;
      const taken: CaptureOutcome =
        given !== undefined
          ? { capture: given, scope: teamId, placeholder: false }
          : await cachedCapture(
              request,
              teamId,
              async () => {
                const startedAt = Date.now();
                // Time spent in wait actions comes on top of the timeout, as in Firecrawl (contract §3.4).
                const timeoutMs =
                  (request.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS) + actionWaitMs(request.actions ?? []);
                const tried =
                  fastPath !== undefined &&
                  !browserOnly &&
                  !donated &&
                  // `enhanced` with a stealth browser connected means that browser, not a plain fetch.
                  (request.proxy !== 'enhanced' ||
                    enhancedClass(connectedBrowsers ?? (() => 0)) === 'basic') &&
                  fastPathEligible(request);
                const fetched = tried ? await fastPath.capture(target, timeoutMs, deriveOptions) : undefined;
                // A page that looks blocked gets the browser (and, with proxy auto, its stealth retry).
                if (fetched !== undefined && !looksBlocked(fetched.capture)) {
                  const fastCapture = { ...fetched.capture, browserClass: 'basic' as const };
                  fastDerived = { capture: fastCapture, derived: fetched.derived };
                  return { capture: fastCapture, source: { scope: 'public' as const } };
                }
                const ran = await runWithProxy(
                  { runTask: profile === undefined ? runTask : profile.isolate(runTask), connectedBrowsers },
                  // The server's network policy travels with the task, for the browser to enforce.
                  {
                    ...taskSpecFromRequest(request, target, profile?.task),
                    networkPolicy: urlPolicy.networkPolicy,
                  },
                  {
                    // The browser gets what the HTTP attempt (if any) left of the budget.
                    timeoutMs: tried ? Math.max(1, timeoutMs - (Date.now() - startedAt)) : timeoutMs,
                    proxy: request.proxy,
                    teamId,
                    priority: context.priority,
                  },
                ).catch((err: unknown) => {
                  const failure = taskErrorToApiError(err, target);
                  log.warn('browser task failed', {
                    teamId,
                    ...(scrapeId === undefined ? {} : { scrapeId }),
                    url: urlForLog(target.href),
                    code: (err as TaskError).code,
                    error: failure.message,
                  });
                  throw failure;
                });
                const fresh = profile === undefined ? ran : await profile.keep(ran);
                // Shared only when nothing of the team shaped it: not its node, not a donated
                // browser, nothing left in the pool browser by the team's earlier work.
                return {
                  capture: fresh,
                  source: mayShareBrowserCapture(request, fresh)
                    ? { scope: 'public' as const }
                    : { scope: 'team' as const },
                };
              },
              undefined,
              { teamOnly: donated },
            );
      const { capture, cacheState, cachedAt, scope, entryId, placeholder } = taken;

      refuseImageForOcr(capture, parsers.image);

      // The fast path derived the formats of the capture it took; a cached or browser capture is
      // derived now, once per cache entry and options while the entry is hot.
      const fastDone = fastDerived !== undefined && fastDerived.capture === capture ? fastDerived : undefined;
      const optionsKey = entryId === undefined ? undefined : deriveOptionsKey(deriveOptions);
      let derived: PageDerivation;
      if (entryId === undefined || optionsKey === undefined) {
        derived =
          fastDone?.derived ??
          (await (context.derive ?? derive)(capture, deriveOptions).catch(rethrowSelectorError));
      } else if (fastDone !== undefined) {
        derived = derivations.remember(entryId, optionsKey, fastDone.derived);
      } else {
        derived = await derivations
          .derive(entryId, capture, deriveOptions, optionsKey, derive)
          .catch(rethrowSelectorError);
      }
      /** What the indexes would be told again on a hit: the team, the capture and how it was derived. */
      const recorded = entryId === undefined ? undefined : `${teamId}\n${entryId}\n${optionsKey}`;
      const dueForIndex = (index: string) =>
        recorded === undefined || indexWrites.due(`${index}\n${recorded}`);

      const {
        metadata,
        markdown,
        pdfPages,
        pdfTotalPages,
        facts,
        pageLinks,
        reads: pageReads,
        ...content
      } = derived;
      onCapture?.(capture, pageLinks);
      const shared = scope === PUBLIC_SCOPE && seenAsAnyoneWould(request);
      if (
        mapIndex !== undefined &&
        indexPage &&
        request.zeroDataRetention !== true &&
        // A page whose caller wants personal data out leaves its title and links in no index.
        redaction === undefined &&
        capture.statusCode < 400 &&
        dueForIndex(`map\n${shared}`)
      ) {
        void mapIndex.recordPage({
          url: capture.url,
          title: typeof metadata.title === 'string' ? metadata.title : undefined,
          description: typeof metadata.description === 'string' ? metadata.description : undefined,
          // Links come along when a crawl or the caller asked for them; extracting them only for the
          // index costs too much.
          links: pageLinks ?? content.links,
          teamId,
          // What anything of the team shaped (its browser state, node, headers, actions) is the team's.
          shared,
        });
      }
      const { warnings, ...computed } = needsText
        ? await llmFormats(
            { llm, changeSnapshots, log },
            {
              request,
              capture,
              markdown: markdown ?? '',
              metadata,
              schemas,
              teamId,
              facts,
              reads: pageReads,
            },
          )
        : { warnings: [] };
      const { warnings: readWarnings, ...read } = readFormats(request.formats, pageReads);
      warnings.push(...readWarnings);
      if (unsupported.length > 0) {
        warnings.unshift(`These formats are not available yet and were skipped: ${unsupported.join(', ')}.`);
      }
      if (placeholder) warnings.push(LOADING_PLACEHOLDER_WARNING);
      const profileWarning = profile?.warning();
      if (profileWarning !== undefined) warnings.push(profileWarning);
      const document: ScrapeDocument = {
        ...(formats.has('markdown') && markdown !== undefined ? { markdown } : {}),
        ...content,
        ...browserOutputs(capture, request),
        ...(requested.includes('branding') && capture.branding !== undefined
          ? { branding: capture.branding }
          : {}),
        ...computed,
        ...read,
        ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
        metadata: {
          ...metadata,
          sourceURL: request.url.raw,
          url: capture.url,
          statusCode: capture.statusCode,
          ...(capture.contentType === undefined ? {} : { contentType: capture.contentType }),
          ...(capture.error === undefined ? {} : { error: capture.error }),
          scrapeId: scrapeId ?? randomUUID(),
          ...proxyMetadata(capture.browserClass),
          ...(pdfPages > 0 ? { numPages: pdfPages } : {}),
          ...(pdfTotalPages === undefined ? {} : { totalPages: pdfTotalPages }),
          creditsUsed: scrapeCredits({ formats: request.formats, proxyUsed: capture.browserClass, pdfPages }),
          ...(cacheState === undefined ? {} : { cacheState }),
          ...(cachedAt === undefined ? {} : { cachedAt }),
        },
      };
      // redactPII: what is kept (GET /v2/scrape/:id, a job's pages) and returned is the redacted document.
      const finished =
        redaction === undefined
          ? document
          : await redactDocument(document, redaction, {
              llm: request.zeroDataRetention === true ? undefined : llm,
              noModelReason: request.zeroDataRetention === true ? 'zeroDataRetention' : 'unconfigured',
            });
      if (
        indexes &&
        searchIndex !== undefined &&
        capture.statusCode >= 200 &&
        capture.statusCode < 300 &&
        dueForIndex('search')
      ) {
        await addPageToSearchIndex(searchIndex, {
          teamId,
          url: capture.url,
          title: typeof metadata.title === 'string' ? metadata.title : '',
          description: typeof metadata.description === 'string' ? metadata.description : undefined,
          markdown: markdown ?? '',
        }).catch((err: unknown) => {
          if (recorded !== undefined) indexWrites.forget(`search\n${recorded}`);
          log.warn('could not add the page to the search index', { error: String(err) });
        });
      }
      if (keepResult && request.zeroDataRetention !== true) {
        await results
          .put({ id: finished.metadata.scrapeId, teamId, document: finished })
          .catch((err: unknown) => log.warn('could not keep the scrape result', { error: String(err) }));
      }
      return finished;
    },
  });
}
