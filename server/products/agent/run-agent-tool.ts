import { z } from 'zod';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { TabhiveError } from '../../platform/errors';
import { scrapeJobPage } from '../jobs';
import type { Log } from '../../platform/log';
import { MAP_CREDITS, type Mapper, siteMapOptions } from '../map';
import type { Scraper, ScrapeDocument } from '../../scrape/types';
import type { SearchService } from '../search';
import { MAX_MAP_LINKS, MAX_SEARCH_RESULTS, PAGE_CHARS_FOR_MODEL, TOOL_TIMEOUT_MS } from './agent-limits';
import type { AgentSource } from './agent-spec';
import type { UrlScope } from './url-scope';

/** What one tool call gave: text for the model, a summary for the trace, and what it cost. */
export interface ToolOutcome {
  forModel: string;
  summary: Record<string, unknown>;
  credits: number;
  /** Why the call was not made (out of scope, a budget): the trace records it as a refusal. */
  refused?: string;
  /** The team's credits are spent (a 402 from the tool): the run stops. */
  outOfCredits?: boolean;
  /** A page read, for deep research's sources. */
  source?: AgentSource;
}

export interface ToolContext {
  teamId: string;
  scraper: Scraper;
  search?: SearchService | undefined;
  mapper?: Mapper | undefined;
  scope: UrlScope;
  signal: AbortSignal;
  /** No call starts past this (ms since the epoch). */
  deadline: number;
  /** Pages (scrape, interact) still allowed; Infinity when unbounded. */
  pagesLeft(): number;
  /** Credits the tools may still spend (a search costs one per result, so its limit is cut to this). */
  creditsLeft(): number;
  /** Every page read is screened for prompt injection first (checkPromptInjection). */
  screensInjection?: boolean;
  log: Log;
}

const SearchArgs = z.object({
  query: z.string().trim().min(1).max(400),
  limit: z.int().min(1).max(MAX_SEARCH_RESULTS).optional(),
});
const MapArgs = z.object({
  url: z.string().max(8192),
  search: z.string().max(200).optional(),
  limit: z.int().min(1).max(MAX_MAP_LINKS).optional(),
});
const ScrapeArgs = z.object({ url: z.string().max(8192) });
/** The actions a model may run: no scripts, screenshots or PDFs. */
const ModelAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('click'), selector: z.string().min(1).max(1000) }),
  z.object({ type: z.literal('write'), text: z.string().max(5000) }),
  z.object({ type: z.literal('press'), key: z.string().min(1).max(50) }),
  z.object({
    type: z.literal('wait'),
    milliseconds: z.int().min(1).max(10_000).optional(),
    selector: z.string().min(1).max(1000).optional(),
  }),
  z.object({
    type: z.literal('scroll'),
    direction: z.enum(['up', 'down']).optional(),
    selector: z.string().min(1).max(1000).optional(),
  }),
]);
const InteractArgs = z.object({ url: z.string().max(8192), actions: z.array(ModelAction).min(1).max(10) });

const refusal = (reason: string, summary: Record<string, unknown> = {}): ToolOutcome => ({
  forModel: `Refused: ${reason}`,
  summary: { ...summary, refused: true, reason },
  credits: 0,
  refused: reason,
});

const failure = (message: string, summary: Record<string, unknown> = {}, credits = 0): ToolOutcome => ({
  forModel: `Error: ${message}`,
  summary: { ...summary, error: message },
  credits,
});

const textOf = (value: unknown) =>
  typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';

/** The tool's arguments, parsed; a string (the problem) when the model wrote bad ones. */
function parseArgs<T>(schema: z.ZodType<T>, raw: string): T | string {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return 'the arguments are not valid JSON';
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  return parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`)
    .join('; ');
}

const timeLeft = (context: ToolContext) => Math.min(TOOL_TIMEOUT_MS, context.deadline - Date.now());

/** A page's Markdown for the model, cut to the budget with a note saying so. */
function pageForModel(document: ScrapeDocument): string {
  const markdown = document.markdown ?? '';
  const cut =
    markdown.length > PAGE_CHARS_FOR_MODEL
      ? `${markdown.slice(0, PAGE_CHARS_FOR_MODEL)}\n\n[… ${markdown.length - PAGE_CHARS_FOR_MODEL} more characters cut]`
      : markdown;
  return [
    `URL: ${document.metadata.url}`,
    `Title: ${textOf(document.metadata.title)}`,
    `Status: ${document.metadata.statusCode}`,
    '',
    cut,
  ].join('\n');
}

async function readPage(
  context: ToolContext,
  raw: { url: string; actions?: z.infer<typeof ModelAction>[] },
): Promise<ToolOutcome> {
  const summary: Record<string, unknown> = { url: raw.url };
  if (context.pagesLeft() <= 0) return refusal('the run has read as many pages as it may (maxUrls)', summary);
  const request = ScrapeRequestV2.safeParse({
    url: raw.url,
    formats: ['markdown'],
    onlyMainContent: true,
    ...(raw.actions === undefined ? {} : { actions: raw.actions }),
    ...(context.screensInjection === true ? { checkPromptInjection: true } : {}),
  });
  if (!request.success) {
    return failure(request.error.issues[0]?.message ?? 'invalid request', summary);
  }
  const url = request.data.url.url;
  if (!context.scope.allows(url)) {
    return refusal(
      `${url} is outside the URLs this run is constrained to (${context.scope.describe()})`,
      summary,
    );
  }
  const remaining = timeLeft(context);
  if (remaining <= 0) return refusal('the run is out of time', summary);
  try {
    const document = await scrapeJobPage(
      context.scraper,
      { ...request.data, timeout: remaining },
      { teamId: context.teamId, deadline: Date.now() + remaining, signal: context.signal },
    );
    if (document === undefined) return failure('the page could not start in time', summary);
    const title = textOf(document.metadata.title);
    const description = textOf(document.metadata.description);
    return {
      forModel: pageForModel(document),
      summary: {
        url: document.metadata.url,
        statusCode: document.metadata.statusCode,
        title,
        ...(description === '' ? {} : { description: description.slice(0, 300) }),
        markdownChars: (document.markdown ?? '').length,
      },
      credits: document.metadata.creditsUsed,
      ...(document.metadata.statusCode < 400
        ? { source: { url: document.metadata.url, title, description } }
        : {}),
    };
  } catch (err) {
    if (err instanceof TabhiveError && err.kind === 'insufficient-credits') {
      return { ...failure("the team's credits are spent", summary), outOfCredits: true };
    }
    if (err instanceof TabhiveError && err.code === 'SCRAPE_PROMPT_INJECTION_DETECTED') {
      // The error's message quotes the page; none of the flagged text may reach the model.
      return refusal('the page was withheld: the prompt-injection screen flagged it', summary);
    }
    if (!(err instanceof TabhiveError)) context.log.warn('agent page failed', { url, error: String(err) });
    return failure(err instanceof Error ? err.message : String(err), summary);
  }
}

async function search(context: ToolContext, raw: string): Promise<ToolOutcome> {
  const args = parseArgs(SearchArgs, raw);
  if (typeof args === 'string') return failure(args);
  const summary = { query: args.query };
  if (context.search === undefined) return failure('this server has no search', summary);
  const remaining = timeLeft(context);
  if (remaining <= 0) return refusal('the run is out of time', summary);
  try {
    const answer = await context.search.search(
      {
        query: args.query,
        sources: ['web'],
        categories: [],
        limit: Math.max(1, Math.min(args.limit ?? 5, context.creditsLeft())),
        lang: 'en',
        country: 'us',
        timeout: remaining,
        ignoreInvalidURLs: true,
        scrapeOptions: ScrapeOptionsV2.parse({ formats: [] }),
      },
      context.teamId,
    );
    const found = answer.data.web ?? [];
    const inScope = found.filter((result) => context.scope.allows(result.url));
    const dropped = found.length - inScope.length;
    const lines = inScope.map(
      (result, index) => `${index + 1}. ${result.title}\n   ${result.url}\n   ${result.description}`,
    );
    return {
      forModel: [
        lines.length === 0 ? 'No results.' : lines.join('\n'),
        dropped > 0 ? `(${dropped} result(s) outside the allowed URLs were left out.)` : '',
      ]
        .filter((line) => line !== '')
        .join('\n'),
      summary: {
        ...summary,
        results: inScope.map((result) => result.url),
        ...(dropped > 0 ? { outOfScope: dropped } : {}),
      },
      credits: answer.creditsUsed,
    };
  } catch (err) {
    if (err instanceof TabhiveError && err.kind === 'insufficient-credits') {
      return { ...failure("the team's credits are spent", summary), outOfCredits: true };
    }
    return failure(err instanceof Error ? err.message : String(err), summary);
  }
}

async function map(context: ToolContext, raw: string): Promise<ToolOutcome> {
  const args = parseArgs(MapArgs, raw);
  if (typeof args === 'string') return failure(args);
  const summary: Record<string, unknown> = {
    url: args.url,
    ...(args.search === undefined ? {} : { search: args.search }),
  };
  if (context.mapper === undefined) return failure('this server has no map', summary);
  let url: string;
  try {
    url = new URL(args.url).href;
  } catch {
    return failure('invalid URL', summary);
  }
  if (!context.scope.allows(url)) {
    return refusal(
      `${url} is outside the URLs this run is constrained to (${context.scope.describe()})`,
      summary,
    );
  }
  const remaining = timeLeft(context);
  if (remaining <= 0) return refusal('the run is out of time', summary);
  try {
    const links = await context.mapper.map(
      siteMapOptions(url, {
        limit: args.limit ?? 50,
        timeout: remaining,
        ...(args.search === undefined ? {} : { search: args.search }),
      }),
      context.teamId,
    );
    const inScope = links.filter((link) => context.scope.allows(link.url));
    return {
      forModel: inScope.length === 0 ? 'No URLs found.' : inScope.map((link) => link.url).join('\n'),
      summary: { ...summary, links: inScope.length },
      credits: MAP_CREDITS,
    };
  } catch (err) {
    if (err instanceof TabhiveError && err.kind === 'insufficient-credits') {
      return { ...failure("the team's credits are spent", summary), outOfCredits: true };
    }
    return failure(err instanceof Error ? err.message : String(err), summary);
  }
}

/** Runs one tool call of the model's, never throwing for the model's mistakes or a page's failure. */
export async function runAgentTool(
  context: ToolContext,
  call: { name: string; arguments: string },
  allowed: readonly string[],
): Promise<ToolOutcome> {
  if (!allowed.includes(call.name))
    return failure(`there is no tool named ${JSON.stringify(call.name.slice(0, 50))}`);
  switch (call.name) {
    case 'search':
      return search(context, call.arguments);
    case 'map':
      return map(context, call.arguments);
    case 'scrape': {
      const args = parseArgs(ScrapeArgs, call.arguments);
      return typeof args === 'string' ? failure(args) : readPage(context, args);
    }
    case 'interact': {
      const args = parseArgs(InteractArgs, call.arguments);
      return typeof args === 'string' ? failure(args) : readPage(context, args);
    }
    default:
      return failure(`there is no tool named ${JSON.stringify(call.name.slice(0, 50))}`);
  }
}

/** The arguments as the trace shows them: parsed when they are JSON, else the text (cut). */
export function traceParameters(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return { unparsed: raw.slice(0, 500) };
  }
}
