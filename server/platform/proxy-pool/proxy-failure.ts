/**
 * Chromium's errors for a proxy that failed it, as a failed navigation reports them
 * (`net::ERR_…`): the tunnel or the proxy connection, or a connection the proxy dropped.
 */
const PROXY_NET_ERRORS =
  /ERR_(TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED|PROXY_AUTH_UNSUPPORTED|PROXY_CERTIFICATE_INVALID|MANDATORY_PROXY_CONFIGURATION_FAILED|CONNECTION_(REFUSED|RESET|CLOSED)|EMPTY_RESPONSE)\b/;

/** Whether a page task's error may be its proxy's doing rather than the site's. */
export function looksLikeProxyFailure(error: unknown): boolean {
  return error instanceof Error && PROXY_NET_ERRORS.test(error.message);
}

/**
 * Whether a status is the browser egress proxy's own answer for a plain-http request its
 * upstream failed (proxy-chain's 590–599: refused, reset, authentication failed, upstream error).
 */
export const isEgressProxyFailureStatus = (status: number) => status >= 590 && status <= 599;
