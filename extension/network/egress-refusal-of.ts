import { EGRESS_REFUSAL_HEADER } from '../../shared/url/egress-refusal';

/** Response headers as webRequest (a list) or CDP (an object) reports them. */
export type ResponseHeaders =
  ReadonlyArray<{ name: string; value?: string | undefined }> | Readonly<Record<string, unknown>> | undefined;

/** The egress proxy's refusal a response carries (server/platform/browser-egress/start-browser-egress-proxy.ts), if any. */
export function egressRefusalOf(headers: ResponseHeaders): string | undefined {
  if (headers === undefined) return undefined;
  if (Array.isArray(headers)) {
    const list = headers as ReadonlyArray<{ name: string; value?: string | undefined }>;
    return list.find((header) => header.name.toLowerCase() === EGRESS_REFUSAL_HEADER)?.value;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === EGRESS_REFUSAL_HEADER) return String(value);
  }
  return undefined;
}
