import type { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';
import {
  type AdmissionRules,
  admissionRules,
  admitScrape,
  checkSelectors,
  checkUrl,
  donatedRouteOf,
  jobPageTasks,
} from './admit';
import { type CaptureDeps, capturePage } from './capture';
import {
  createDerivationMemo,
  deriveCapture,
  derivePage,
  runUnderScrapeDeadline,
  WorkContinues,
} from './derive';
import { countScrapedPage, createPageEmitter, rememberInteractOptions } from './emit';
import { enrichPage } from './enrich';
import { planScrape } from './scrape-plan';
import type { ScraperParts } from './scraper-parts';
import type { ScrapeDocument, ScrapeContext, Scraper } from './types';

/**
 * The scraper every caller uses: one scrape, end to end. The caller's admission (types/scraper.ts)
 * decides what the page holds while it runs (a team slot, reserved credits, a job browser slot);
 * then, under the scrape's deadline, the stages run in turn: admit (selectors, the team's donated
 * browsers' routing, plan, URL policy),
 * capture (the page in hand, the cache, the HTTP fast path or a browser), derive (formats from the
 * capture), enrich (formats from its text or a model, warnings, redaction) and emit (indexes, the
 * kept result).
 */
export function createScraper(parts: ScraperParts): Scraper {
  const { urlPolicy, log, derive = derivePage, derivations = createDerivationMemo() } = parts;
  const emitter = createPageEmitter(parts);
  const captureDeps: CaptureDeps = { ...parts, networkPolicy: urlPolicy.networkPolicy };
  const jobPageCaptureDeps: CaptureDeps = {
    ...captureDeps,
    runTask: jobPageTasks(parts.runTask, parts.jobBrowserSlots),
    // A job's page waits for the team's donated browser up to its timeout; a scrape someone waits
    // for is told at once that it is offline.
    waitsForDonatedBrowser: true,
  };
  const enrichDeps = { llm: parts.llm, changeSnapshots: parts.changeSnapshots, log };

  /** One page, from its plan to what it leaves behind. */
  async function scrapePage(
    request: ScrapeRequestV2,
    context: ScrapeContext,
    rules: AdmissionRules,
  ): Promise<ScrapeDocument> {
    checkSelectors(request);
    // Routed first: a URL only the team's donated browser may reach is never resolved here.
    const donatedRoute = await donatedRouteOf(request, context, parts.donatedRoutes);
    const plan = planScrape(request, context, parts, donatedRoute);
    await checkUrl(plan, urlPolicy);
    const captured = await capturePage(plan, rules.jobPage ? jobPageCaptureDeps : captureDeps);
    const page = await deriveCapture(plan, captured, { derive, derivations });
    emitter.seen(plan, captured, page);
    const document = await enrichPage(plan, captured, page.derived, enrichDeps);
    await emitter.keep(plan, captured, page, document);
    return document;
  }

  return {
    async scrape(request, context) {
      const rules = admissionRules(context.admission);
      const admission = await admitScrape(parts, rules, request, context);
      const admitted =
        admission.scrapeId === undefined ? context : { ...context, scrapeId: admission.scrapeId };
      let document: ScrapeDocument;
      try {
        document = await countScrapedPage(parts.metrics, rules.metricsSource, () =>
          // Every scrape answers within its timeout, whatever path it takes (scrape-deadline.ts).
          runUnderScrapeDeadline(
            request,
            context.teamId,
            () => scrapePage(request, admitted, rules),
            context.continuable === true,
          ),
        );
      } catch (err) {
        if (err instanceof WorkContinues) {
          // The document goes on: booked once when it is done, released if it fails.
          throw new WorkContinues(
            (err.running as Promise<ScrapeDocument>).then(
              async (done) => {
                await admission.settle(done);
                return done;
              },
              async (failure: unknown) => {
                await admission.release();
                throw failure;
              },
            ),
          );
        }
        await admission.release();
        throw err;
      }
      await admission.settle(document);
      if (rules.remembersInteractOptions && parts.interactOptions !== undefined) {
        rememberInteractOptions(parts.interactOptions, request, context.teamId, document);
      }
      return document;
    },
  };
}
