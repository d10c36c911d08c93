import { z } from 'zod';
import { FormatsV2 } from '../v2/formats';
import type { ScrapeOptionsV2 } from '../v2/scrape-options';
import type { AgentV1, FormatNameV1, scrapeOptionsV1Shape } from './scrape-options';

/** Change tracking in v1 waits at least this long for the page to settle (docs/wire-contract.md §11.1). */
export const CHANGE_TRACKING_MIN_WAIT_MS = 5_000;
const EXPERIMENTAL_CACHE_MAX_AGE_MS = 4 * 60 * 60 * 1000;

/** v1 options as parsed; `timeout` has a default only on /v1/scrape. */
type V1Options = Omit<z.output<z.ZodObject<typeof scrapeOptionsV1Shape>>, 'timeout'> & {
  timeout?: number | undefined;
  agent?: z.output<typeof AgentV1> | undefined;
};

export interface MappedV1Options {
  options: ScrapeOptionsV2;
  /** `data.extract` for the extract format, `data.json` for json (never both). */
  jsonKey: 'json' | 'extract';
  warnings: string[];
}

/**
 * What v1 scrape options mean in v2 terms, for /v1/scrape and the scrape options of v1 crawl and
 * batch alike (docs/wire-contract.md §11.1): string formats become format objects carrying `jsonOptions` /
 * `extract` / `changeTrackingOptions`, `parsePDF` becomes `parsers`, `geolocation` `location`,
 * and v1's timeout transforms apply. Format errors are added to `ctx` (then z.NEVER is returned).
 */
export function v1ToV2Options(v1: V1Options, ctx: z.RefinementCtx): MappedV1Options {
  const {
    formats: names,
    jsonOptions,
    extract,
    changeTrackingOptions,
    parsePDF,
    geolocation,
    agent,
    __experimental_cache: experimentalCache,
    ...rest
  } = v1;
  const has = (format: FormatNameV1) => names.includes(format);
  const extraction = jsonOptions ?? extract;
  const objects = [...new Set(names)].map((name) => {
    switch (name) {
      case 'screenshot':
      case 'screenshot@fullPage':
        return { type: 'screenshot', fullPage: name === 'screenshot@fullPage' };
      case 'json':
      case 'extract':
        return {
          type: 'json',
          schema: extraction?.schema,
          prompt: extraction?.prompt,
          checkPromptInjection: extraction?.checkPromptInjection,
        };
      case 'changeTracking':
        return { type: 'changeTracking', ...changeTrackingOptions };
      default:
        return { type: name };
    }
  });
  const formats = FormatsV2.safeParse(objects);
  if (!formats.success) {
    for (const issue of formats.error.issues)
      ctx.addIssue({ ...issue, path: ['formats', ...issue.path] } as never);
    return z.NEVER;
  }

  let timeout = rest.timeout;
  let waitFor = rest.waitFor;
  if (timeout === 30_000) {
    if (agent !== undefined || extraction?.agent !== undefined) timeout = 300_000;
    else if (rest.proxy !== 'basic') timeout = 120_000;
    else if (has('json') || has('extract') || has('changeTracking')) timeout = 60_000;
  }
  if (has('changeTracking')) waitFor = Math.max(waitFor, CHANGE_TRACKING_MIN_WAIT_MS);
  const warnings =
    agent !== undefined || extraction?.agent !== undefined
      ? ['The FIRE-1 agent is not available on this server; the page was scraped without it.']
      : [];
  return {
    options: {
      ...rest,
      timeout,
      waitFor,
      formats: formats.data,
      parsers: parsePDF ? ['pdf'] : [],
      maxAge: experimentalCache && rest.maxAge === 0 ? EXPERIMENTAL_CACHE_MAX_AGE_MS : rest.maxAge,
      ...(rest.location === undefined && geolocation !== undefined ? { location: geolocation } : {}),
    },
    jsonKey: has('extract') ? 'extract' : 'json',
    warnings,
  };
}
