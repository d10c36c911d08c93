/**
 * Firecrawl endpoints that its SDKs call and Tabhive does not serve, by what they are for. A
 * request to one gets a JSON 404 that names the feature (not the generic "Not found"), quickly,
 * so an SDK method fails with a message that says why instead of hanging or parsing HTML.
 */
const UNSERVED: ReadonlyArray<{ path: RegExp; feature: string }> = [
  { path: /^\/v2\/(search\/[^/]+\/)?feedback(\/|$)/, feature: 'feedback' },
  { path: /^\/v2\/search\/(developer|research|gov)(\/|$)/, feature: 'specialised search' },
  { path: /^\/v1\/x402\//, feature: 'x402 payments' },
];

/** The feature an unserved Firecrawl path belongs to, or undefined for any other path. */
export function unservedFeature(path: string): string | undefined {
  return UNSERVED.find((route) => route.path.test(path))?.feature;
}
