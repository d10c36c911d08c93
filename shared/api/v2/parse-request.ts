import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { FormatsV2 } from './formats';
import { scrapeOptionsV2Shape } from './scrape-options';

/** Formats that need a live page (or a media track): a document has none to give. */
export const PARSE_REFUSED_FORMATS: ReadonlySet<string> = new Set([
  'screenshot',
  'changeTracking',
  'branding',
  'audio',
  'video',
]);

/**
 * A scrape option that asks for page work an upload cannot have. A value that asks for nothing
 * (`waitFor: 0`, `mobile: false`, `actions: []`, which firecrawl-py lets through) is accepted.
 */
function refused(what: string, asksForNothing: (value: unknown) => boolean = () => false) {
  return z
    .unknown()
    .refine(asksForNothing, { error: `parse does not support ${what}` })
    .optional();
}

const formatType = (entry: unknown): unknown =>
  typeof entry === 'string' ? entry : (entry as { type?: unknown } | null)?.type;

/** `formats`, refusing by name what a document cannot give before the v2 format schema runs. */
const ParseFormats = z
  .array(z.unknown())
  .superRefine((formats, ctx) => {
    formats.forEach((entry, index) => {
      const type = formatType(entry);
      if (typeof type === 'string' && PARSE_REFUSED_FORMATS.has(type)) {
        ctx.addIssue({ code: 'custom', message: `parse does not support the ${type} format`, path: [index] });
      }
    });
  })
  .pipe(FormatsV2.unwrap());

const {
  waitFor: _waitFor,
  mobile: _mobile,
  actions: _actions,
  location: _location,
  maxAge: _maxAge,
  storeInCache: _storeInCache,
  proxy: _proxy,
  formats: _formats,
  ...documentOptions
} = scrapeOptionsV2Shape;

/**
 * The `options` part of `POST /v2/parse` (a JSON string in the multipart body): the v2 scrape
 * options that make sense for a document in hand. Browser-only and cache options are a 400 that
 * says parse does not support them, as Firecrawl's clients say before sending; `headers`,
 * `skipTlsVerification`, `blockAds` and `fastMode` are accepted and have nothing to act on.
 */
export const ParseOptionsV2 = strictBody(
  {
    ...documentOptions,
    ...commonFields,
    formats: ParseFormats.default(() => [{ type: 'markdown' as const }]),
    proxy: z
      .enum(['basic', 'auto'], { error: "parse only supports proxy values of 'basic' or 'auto'" })
      .default('auto'),
    waitFor: refused('waitFor', (value) => value === 0),
    mobile: refused('mobile rendering', (value) => value === false),
    actions: refused('actions', (value) => Array.isArray(value) && value.length === 0),
    location: refused('location overrides'),
    maxAge: refused('cache/index options (maxAge)'),
    minAge: refused('cache/index options (minAge)'),
    storeInCache: refused('cache/index options (storeInCache)'),
    lockdown: refused('cache/index options (lockdown)'),
  },
  'v2',
);
export type ParseOptionsV2 = z.infer<typeof ParseOptionsV2>;
