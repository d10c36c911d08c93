import { z } from 'zod';

/**
 * Building blocks of the relay's parameter schemas (cdp-relay-methods.ts). Every method's schema
 * is strict: a parameter the table does not name is refused, so a parameter Chromium adds later
 * (or one a method always had and the table left out on purpose) never passes unseen.
 */

/** Source a client runs in the page: Playwright's injected script is a few hundred KiB. */
export const MAX_CODE_CHARS = 4 * 1024 * 1024;
/** Addresses, selectors, names and other short strings. */
export const MAX_TEXT_CHARS = 16 * 1024;

export const code = z.string().max(MAX_CODE_CHARS);
export const text = z.string().max(MAX_TEXT_CHARS);
export const flag = z.boolean();
export const num = z.number().finite();
export const int = z
  .number()
  .int()
  .min(-(2 ** 31))
  .max(2 ** 31 - 1);
export const id = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
/** Frame, loader and request ids: Chromium's are hex or dotted digits. */
export const token = z
  .string()
  .max(200)
  .regex(/^[\w.:-]*$/);
/** A remote object's id (`<isolate>.<context>.<object>`); its context is checked apart. */
export const objectId = z
  .string()
  .max(100)
  .regex(/^-?\d+\.\d+\.\d+$/);
/** A context's `uniqueId` (two 64-bit halves); checked against what the client was told. */
export const uniqueId = z.string().max(100);
/** Tabhive names its own worlds `tabhive…` (evaluate-isolated.ts, session-evaluate.ts). */
export const RESERVED_WORLD = /^tabhive/i;
/** A world's name; names of Tabhive's own worlds are refused where a client names one. */
export const worldName = z
  .string()
  .max(200)
  .refine((name) => !RESERVED_WORLD.test(name), 'world names starting with "tabhive" are Tabhive’s own');

/** One object of named, typed parameters and nothing else. */
export const params = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
export const none = params({});

/** A nested value the protocol types loosely (font families, UA metadata): bounded, JSON only. */
export const looseObject = z.record(z.string().max(200), z.unknown());

/** Node addressing shared by the DOM commands: by id, by backend id or by remote object. */
export const nodeRef = {
  nodeId: id.optional(),
  backendNodeId: id.optional(),
  objectId: objectId.optional(),
};

const rect = z.strictObject({ x: num, y: num, width: num, height: num });
export { rect };

export const viewport = z.strictObject({ x: num, y: num, width: num, height: num, scale: num });

/**
 * Where a navigation may go: http(s) addresses and about:blank. No `javascript:` (code in the
 * page's origin without a document), `file:`, `chrome:`, `chrome-extension:`, `data:`, `blob:`,
 * `view-source:` or `filesystem:`. The host is checked against the network policy apart, before
 * the command is sent (cdp-relay-navigation.ts).
 */
export const webUrl = z
  .string()
  .max(MAX_TEXT_CHARS)
  .refine((url) => isWebUrl(url), 'goes to http(s) addresses and about:blank only');

export function isWebUrl(url: string): boolean {
  if (url === 'about:blank') return true;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.username === '';
  } catch {
    return false;
  }
}

/** Header names a client may not set: the request line's own, and those the network stack owns. */
const RESERVED_HEADERS =
  /^(host|connection|content-length|transfer-encoding|upgrade|proxy-.*|te|trailer|keep-alive)$/i;

export const headers = z
  .record(
    z
      .string()
      .max(200)
      .regex(/^[!#$%&'*+.^_`|~\w-]+$/),
    z.string().max(8192),
  )
  .refine((all) => Object.keys(all).length <= 100, 'at most 100 headers')
  .refine(
    (all) => Object.keys(all).every((name) => !RESERVED_HEADERS.test(name)),
    'Host, Connection, Proxy-* and framing headers are set by the browser',
  );

/** What a drag carries: items of text, never files (`files` are paths the browser reads). */
export const dragData = z.strictObject({
  items: z
    .array(
      z.strictObject({
        mimeType: z.string().max(200),
        data: text,
        title: text.optional(),
        baseURL: text.optional(),
      }),
    )
    .max(100),
  files: z
    .array(z.string())
    .max(0, 'files are not available: they are paths the browser would read from its disk')
    .optional(),
  dragOperationsMask: int,
});

/** A function argument: a value, or an object of a context the client may reach. */
export const callArgument = z.strictObject({
  value: z.unknown().optional(),
  unserializableValue: z.string().max(100).optional(),
  objectId: objectId.optional(),
});

export const serializationOptions = z.strictObject({
  serialization: z.enum(['deep', 'json', 'idOnly']),
  maxDepth: int.optional(),
  additionalParameters: looseObject.optional(),
});
