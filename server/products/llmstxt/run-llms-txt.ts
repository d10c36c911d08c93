import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { TabhiveError } from '../../platform/errors';
import { JobAborted, JobFailure, type JobRun, scrapeJobPage } from '../jobs';
import type { LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import { MAP_CREDITS, type Mapper, siteMapOptions } from '../map';
import type { Scraper } from '../../scrape/types';
import { describePage, oneLine } from './describe-page';
import {
  LLMSTXT_JOB_TIMEOUT_MS,
  LLMSTXT_MAP_TIMEOUT_MS,
  LLMSTXT_PAGE_CONCURRENCY,
  LLMSTXT_PAGE_TIMEOUT_MS,
  MAX_FULL_TEXT_CHARS,
} from './llms-txt-limits';
import type { LlmsTxtOutput, LlmsTxtPage, LlmsTxtSpec } from './llms-txt-spec';
import { writeLlmsFullTxt, writeLlmsTxt } from './write-llms-txt';

export interface LlmsTxtDeps {
  scraper: Scraper;
  mapper: Mapper;
  llm: LlmProvider | undefined;
  log: Log;
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The site's pages to read: the start page first, then what its map finds, `maxUrls` in all. */
async function sitePages(spec: LlmsTxtSpec, teamId: string, mapper: Mapper, warnings: string[]) {
  const start = new URL(spec.url);
  start.hash = '';
  try {
    const links = await mapper.map(
      siteMapOptions(spec.url, { limit: spec.maxUrls * 2, timeout: LLMSTXT_MAP_TIMEOUT_MS }),
      teamId,
    );
    const others = links.map((link) => link.url).filter((url) => url !== start.href);
    return { urls: [start.href, ...others].slice(0, spec.maxUrls), credits: MAP_CREDITS };
  } catch (err) {
    if (err instanceof TabhiveError && err.kind === 'insufficient-credits') throw new JobFailure(err.message);
    warnings.push(`The site map failed (${reason(err)}); only the start page was read.`);
    return { urls: [start.href], credits: 0 };
  }
}

/**
 * One llms.txt job: the site's pages (its map, `maxUrls` at most), each scraped as Markdown (its
 * main content), described in one line (the model, or the page's own description or first
 * sentence), and written as llms.txt and, when asked, llms-full.txt. Pages that fail or answer an
 * error status are left out and named in the warnings; with none left, the job fails.
 * Credits: the map and each page, as their own routes price them.
 */
export async function runLlmsTxt(
  spec: LlmsTxtSpec,
  { teamId, signal, onCredits }: JobRun,
  { scraper, mapper, llm, log }: LlmsTxtDeps,
): Promise<{ output: LlmsTxtOutput; creditsUsed: number }> {
  const deadline = Date.now() + LLMSTXT_JOB_TIMEOUT_MS;
  const warnings: string[] = [];
  let credits = 0;
  const book = (amount: number) => {
    credits += amount;
    onCredits(credits);
  };

  const plan = await sitePages(spec, teamId, mapper, warnings);
  book(plan.credits);
  const request = ScrapeRequestV2.parse({
    url: plan.urls[0],
    formats: ['markdown'],
    onlyMainContent: true,
    timeout: LLMSTXT_PAGE_TIMEOUT_MS,
    ...(spec.cache ? {} : { maxAge: 0 }),
  });

  const pages: Array<LlmsTxtPage | undefined> = plan.urls.map(() => undefined);
  const left: string[] = [];
  let outOfCredits: string | undefined;
  let next = 0;
  const worker = async () => {
    while (next < plan.urls.length && outOfCredits === undefined) {
      const index = next++;
      const url = plan.urls[index]!;
      try {
        const document = await scrapeJobPage(
          scraper,
          { ...request, url: { raw: url, url } },
          { teamId, deadline, signal },
        );
        if (document === undefined) {
          left.push(`${url} (not reached in time)`);
          continue;
        }
        book(document.metadata.creditsUsed);
        if (document.metadata.statusCode >= 400) {
          left.push(`${url} (HTTP ${document.metadata.statusCode})`);
          continue;
        }
        const { title, description } = document.metadata;
        const markdown = document.markdown ?? '';
        const name = typeof title === 'string' && title.trim() !== '' ? oneLine(title) : url;
        pages[index] = {
          url: document.metadata.url ?? url,
          title: name,
          description: await describePage(
            {
              url,
              title: name,
              description: typeof description === 'string' ? description : undefined,
              markdown,
            },
            { llm, log },
          ),
          markdown,
        };
      } catch (err) {
        if (err instanceof TabhiveError && err.kind === 'insufficient-credits') {
          outOfCredits = err.message;
          continue;
        }
        if (!(err instanceof TabhiveError))
          log.warn('llms.txt page failed unexpectedly', { url, error: String(err) });
        left.push(`${url} (${reason(err)})`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LLMSTXT_PAGE_CONCURRENCY, plan.urls.length) }, worker));
  if (signal.aborted) throw new JobAborted();

  const read = pages.filter((page): page is LlmsTxtPage => page !== undefined);
  if (outOfCredits !== undefined) {
    if (read.length === 0) throw new JobFailure(outOfCredits);
    warnings.push(`The team ran out of credits; ${plan.urls.length - read.length} pages were not read.`);
  }
  if (left.length > 0) warnings.push(`Pages left out: ${left.join(', ')}.`);
  if (read.length === 0) throw new JobFailure(['No page of the site could be read.', ...warnings].join(' '));

  // The site is named and summed up by its start page (or, when that failed, the first page read).
  const home = read[0]!;
  const site = { name: home.title, summary: home.description };
  const output: LlmsTxtOutput = { llmstxt: writeLlmsTxt(site, read), warnings };
  if (spec.showFullText) {
    const full = writeLlmsFullTxt(site, read, MAX_FULL_TEXT_CHARS);
    output.llmsfulltxt = full.text;
    if (full.cut) warnings.push(`llms-full.txt was cut at ${MAX_FULL_TEXT_CHARS} characters.`);
  }
  return { output, creditsUsed: credits };
}
