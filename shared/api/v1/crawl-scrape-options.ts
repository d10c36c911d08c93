import { z } from 'zod';
import { strictBody } from '../strict-body';
import { refineScrapeOptionsV2, scrapeOptionsV2Shape, ScrapeOptionsV2 } from '../v2/scrape-options';

const FormatV1 = z.enum([
  'markdown',
  'html',
  'rawHtml',
  'links',
  'screenshot',
  'screenshot@fullPage',
  'extract',
  'json',
  'summary',
  'changeTracking',
]);

/**
 * v1 scrape options as crawl and batch scrape take them (contract §11.1): string formats, v1
 * defaults (`proxy: basic`, `skipTlsVerification: false`, no cache reads), and the v1-only fields.
 * Parsed into the v2 options the pipeline runs on. The LLM options (`jsonOptions`, `extract`,
 * `changeTrackingOptions`) are accepted; those formats are skipped with a warning, as on v2.
 */
export const scrapeOptionsV1Shape = {
  ...scrapeOptionsV2Shape,
  formats: z.array(FormatV1).default(['markdown']),
  proxy: z.enum(['basic', 'stealth', 'auto']).default('basic'),
  skipTlsVerification: z.boolean().default(false),
  maxAge: z.int().min(0).default(0),
  parsePDF: z.boolean().default(true),
  jsonOptions: z.record(z.string(), z.unknown()).optional(),
  extract: z.record(z.string(), z.unknown()).optional(),
  changeTrackingOptions: z.record(z.string(), z.unknown()).optional(),
  geolocation: scrapeOptionsV2Shape.location,
  parsers: z.array(z.literal('pdf')).optional(),
};

type V1Fields = z.infer<z.ZodObject<typeof scrapeOptionsV1Shape>>;

/** The v2 options a v1 request means. */
export function v1ToV2Options(v1: V1Fields): ScrapeOptionsV2 {
  const {
    formats,
    parsePDF,
    jsonOptions: _json,
    extract: _extract,
    changeTrackingOptions: _changeTracking,
    geolocation,
    parsers,
    ...rest
  } = v1;
  const v2Formats = [...new Set(formats)].map((format) =>
    format === 'screenshot@fullPage'
      ? { type: 'screenshot', fullPage: true }
      : { type: format === 'extract' ? 'json' : format },
  );
  return ScrapeOptionsV2.parse({
    ...rest,
    formats: v2Formats,
    parsers: parsers ?? (parsePDF ? ['pdf'] : []),
    ...(rest.location === undefined && geolocation !== undefined ? { location: geolocation } : {}),
  });
}

export const ScrapeOptionsV1 = strictBody(scrapeOptionsV1Shape, 'v1')
  .superRefine(refineScrapeOptionsV2)
  .transform(v1ToV2Options);
