import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { FormatsV2 } from '../v2/formats';
import { refineScrapeOptionsV2 } from '../v2/scrape-options';
import type { ScrapeRequestV2 } from '../v2/scrape-request';
import { AgentV1, type FormatNameV1, refineScrapeOptionsV1, scrapeOptionsV1Shape } from './scrape-options';

/** Change tracking in v1 waits at least this long for the page to settle (contract §11.1). */
export const CHANGE_TRACKING_MIN_WAIT_MS = 5_000;
const EXPERIMENTAL_CACHE_MAX_AGE_MS = 4 * 60 * 60 * 1000;

/** A v1 scrape as the pipeline runs it, and what the v1 response does differently. */
export interface ScrapeV1 {
  request: ScrapeRequestV2;
  /** `data.extract` for the extract format, `data.json` for json (never both). */
  jsonKey: 'json' | 'extract';
  warnings: string[];
}

/**
 * Body of `POST /v1/scrape` (contract §11.1), parsed into the v2 request it means: string formats
 * become format objects carrying `jsonOptions` / `extract` / `changeTrackingOptions`, `parsePDF`
 * becomes `parsers`, `geolocation` `location`, and the v1 timeout transforms apply.
 */
export const ScrapeRequestV1 = strictBody(
  { ...scrapeOptionsV1Shape, ...commonFields, url: UrlInput, agent: AgentV1.optional() },
  'v1',
)
  .superRefine(refineScrapeOptionsV2)
  .superRefine(refineScrapeOptionsV1)
  .transform((v1, ctx): ScrapeV1 => {
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
          return { type: 'json', schema: extraction?.schema, prompt: extraction?.prompt };
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
      request: {
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
  });
export type ScrapeRequestV1 = z.infer<typeof ScrapeRequestV1>;
