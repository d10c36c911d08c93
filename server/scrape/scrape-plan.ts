import { actionWaitMs } from '../../shared/api/v2/actions';
import { servesFromCacheOnly } from '../../shared/api/v2/cache-only';
import { redactionSettings } from '../../shared/api/v2/redact-pii';
import type { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';
import type { BasicFormat } from '../../shared/formats/derive-formats';
import { classifyHost } from '../../shared/url/classify-host';
import { type DonatedRoute, routesToDonated } from '../browsers/hub';
import { extractsJson, type UrlCheckPlan } from './admit';
import type { CapturePlan } from './capture';
import { type DerivePlan, pageReadsRequest, requestedParsers, DEFAULT_SCRAPE_TIMEOUT_MS } from './derive';
import type { EmitPlan } from './emit';
import { type EnrichPlan, requestSchemas } from './enrich';
import { BASIC_FORMATS, BROWSER_FORMATS, LLM_FORMATS, READ_FORMATS, type ScrapeContext } from './types';
import type { ScraperParts } from './scraper-parts';

/**
 * What one scrape needs, computed once from its request and context before any page work: every
 * stage reads its part of it (UrlCheckPlan, CapturePlan, DerivePlan, EnrichPlan, EmitPlan) and
 * none changes it.
 */
export interface ScrapePlan extends UrlCheckPlan, CapturePlan, DerivePlan, EnrichPlan, EmitPlan {}

/**
 * The plan of a scrape. The caller's JSON Schemas are compiled here, a 400 before any browser
 * work (request-schemas.ts). `donatedRoute` is where the team's donated browsers send the URL
 * (admit/donated-route.ts), decided before the plan since it takes a look at the store.
 */
export function planScrape(
  request: ScrapeRequestV2,
  context: ScrapeContext,
  { llm, mapIndex, searchIndex }: Pick<ScraperParts, 'llm' | 'mapIndex' | 'searchIndex'>,
  donatedRoute?: DonatedRoute,
): ScrapePlan {
  const { teamId, capture: given, indexPage = true } = context;
  const target = new URL(request.url.url);
  const schemas = requestSchemas(request);
  const redaction = redactionSettings(request.redactPII);
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
  // A page whose caller wants it not kept, or personal data out, leaves nothing in an index.
  const indexable = indexPage && request.zeroDataRetention !== true && redaction === undefined;
  const joinsSearchIndex = searchIndex !== undefined && indexable;
  return {
    request,
    teamId,
    scrapeId: context.scrapeId,
    target,
    given,
    // A cache-only request (lockdown, minAge) never reaches the site, so a public name is not even
    // looked up; a local name or address is still judged against today's policy.
    checksUrl:
      given === undefined && !(servesFromCacheOnly(request) && classifyHost(target).kind === 'needs-dns'),
    requested,
    formats,
    unsupported,
    needsText,
    schemas,
    redaction,
    imageParser: parsers.image,
    deriveOptions: {
      // The search index reads the page's Markdown too, so it is derived even when not asked for.
      formats: needsText || joinsSearchIndex ? new Set([...formats, 'markdown' as const]) : formats,
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
    },
    deriveWith: context.derive,
    // Only the team's donated browser takes this URL (its owner's login, or a name only its
    // network knows): no check or lookup of the name here, no fast path, no pool browser, no
    // cached copy but the team's own.
    donatedRoute,
    donated: routesToDonated(donatedRoute),
    profile: given === undefined ? request.profile : undefined,
    browserOnly: context.browserOnly ?? false,
    // Time spent in wait actions comes on top of the timeout, as in Firecrawl (docs/wire-contract.md §3.4).
    timeoutMs: (request.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS) + actionWaitMs(request.actions ?? []),
    keepResult: context.keepResult ?? true,
    onCapture: context.onCapture,
    onChallenge: context.onChallenge,
    joinsMapIndex: mapIndex !== undefined && indexable,
    joinsSearchIndex,
  };
}
