import type { UrlPolicy } from '../../platform/url-policy';

/** Why the relay refuses to send a session's tab to `url`; undefined when it may go. */
export type RelayNavigationCheck = (url: string) => Promise<string | undefined>;

/**
 * The server's look at a relay client's `Page.navigate` before the tab is asked: the URL policy,
 * with DNS, as for a scrape's URL, so that a public-looking name of a private address is refused
 * before the browser connects to it. The tab checks the scheme and the host again, and its address
 * guard watches where the browser did connect: a name may resolve differently there; docs/security.md.
 * A name the server cannot resolve is left to the browser, which may see names the server does not
 * (a donated browser on its owner's network); the address guard still judges where it connects.
 */
export function relayNavigationCheck(urlPolicy: UrlPolicy): RelayNavigationCheck {
  return async (url) => {
    if (url === 'about:blank') return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'Page.navigate through the cdpUrl relay needs an absolute http(s) URL';
    }
    const verdict = await urlPolicy.check(parsed);
    if (verdict.allowed || verdict.reason === 'dns') return undefined;
    // Opaque origins (file:, data:) read "null": name the scheme instead.
    const where = parsed.origin === 'null' ? `a ${parsed.protocol} URL` : parsed.origin;
    return `Page.navigate to ${where} is refused by the URL policy: ${verdict.message}`;
  };
}
