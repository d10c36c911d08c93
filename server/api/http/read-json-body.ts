import type { Middleware } from 'koa';
import { errors } from '../../platform/errors';
import { checkJsonTextDepth, inspectJson } from '../../platform/input';

/** Firecrawl's ceiling (Express json limit); batch requests with many URLs need the room. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

declare module 'koa' {
  interface Request {
    /** The parsed body of POST/PUT/PATCH requests; `undefined` for bodiless methods. */
    body?: unknown;
  }
}

const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

/**
 * Parses request bodies into `ctx.request.body`: JSON, and urlencoded forms as Firecrawl does.
 * A body that starts like JSON is read as JSON whatever its Content-Type, because `curl -d '{…}'`
 * without `-H 'Content-Type: application/json'` sends it as a form. Malformed JSON is Firecrawl's
 * BAD_REQUEST_INVALID_JSON; reading stops at the size limit, and the parsed value is inspected
 * (depth, sizes, forbidden keys) before any schema sees it.
 */
export function readJsonBody({ limitBytes = MAX_BODY_BYTES }: { limitBytes?: number } = {}): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) return next();
    const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
    const isJsonType = type === '' || type === 'application/json' || type.endsWith('+json');
    const isForm = type === 'application/x-www-form-urlencoded';

    // A too-large body's answer closes the connection (error-status.ts): its rest is never read.
    if (Number(ctx.get('content-length') || '0') > limitBytes) throw errors.payloadTooLarge(limitBytes);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limitBytes) throw errors.payloadTooLarge(limitBytes);
      chunks.push(buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');

    if (text.trim() === '') {
      ctx.request.body = {};
    } else if (isJsonType || looksLikeJson(text)) {
      checkJsonTextDepth(text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        throw errors.invalidJson();
      }
      inspectJson(parsed);
      ctx.request.body = parsed;
    } else if (isForm) {
      const form = Object.fromEntries(new URLSearchParams(text));
      inspectJson(form);
      ctx.request.body = form;
    } else {
      throw errors.unsupportedMediaType(type);
    }
    return next();
  };
}
