import { lookup } from 'node:dns/promises';
import { classifyAddress, type AddressClass } from '../../../shared/url/classify-address';
import { classifyHost } from '../../../shared/url/classify-host';
import type { NetworkPolicy } from '../../../shared/url/network-policy';
import { allowsAddress, allowsName, parsePrivateAllowList } from '../../../shared/url/private-allow-list';

/** Resolves a hostname to every address it has. Rejects, or returns none, when it cannot. */
export type LookupFn = (hostname: string) => Promise<readonly string[]>;

export type UrlRefusalReason = 'private-network' | 'metadata' | 'scheme' | 'userinfo' | 'dns' | 'not-a-host';

/**
 * `message` is user-facing. `dns` maps to SCRAPE_DNS_RESOLUTION_ERROR, `not-a-host` (a single-label
 * name that nothing resolves, most often a typo such as `examplecom`) to a 400 that says the URL
 * looks wrong (url-refusal-error.ts), the others to a block.
 */
export type UrlVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: UrlRefusalReason; readonly message: string };

export interface UrlPolicyOptions {
  /** ALLOW_PRIVATE_NETWORKS: loopback, RFC 1918, link-local, ULA and local names become allowed. */
  readonly allowPrivateNetworks: boolean;
  /** Separately, cloud metadata endpoints. Off unless explicitly set. */
  readonly allowMetadata?: boolean;
  /** ALLOWED_PRIVATE_HOSTS: the private names and ranges allowed without ALLOW_PRIVATE_NETWORKS. */
  readonly allowedPrivateHosts?: readonly string[];
  readonly lookup?: LookupFn;
}

export interface UrlPolicy {
  check(url: URL): Promise<UrlVerdict>;
  /** The same rules for the browser, which sends every page task with them. */
  readonly networkPolicy: NetworkPolicy;
}

const ALLOWED: UrlVerdict = { allowed: true };

const lookupAll: LookupFn = async (hostname) => {
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((answer) => answer.address);
};

/**
 * Decides, before a browser is sent anywhere, whether a scrape target may be visited.
 *
 * This is a pre-check: Chromium resolves the name again when it navigates, so a rebinding name can
 * still get through. The browser-side checks and the network are the layers behind this one.
 */
export function createUrlPolicy(options: UrlPolicyOptions): UrlPolicy {
  const {
    allowPrivateNetworks,
    allowMetadata = false,
    allowedPrivateHosts = [],
    lookup: resolve = lookupAll,
  } = options;
  const allowList = parsePrivateAllowList(allowedPrivateHosts);

  /** A private address passes when it is in an allowed range or the name asked for is allowed. */
  const allowedPrivate = (address: string, hostname: string | undefined) =>
    allowPrivateNetworks ||
    allowsAddress(allowList, address) ||
    (hostname !== undefined && allowsName(allowList, hostname));

  function judge(address: AddressClass, shown: string, hostname?: string): UrlVerdict {
    switch (address.kind) {
      case 'public':
        return ALLOWED;
      case 'metadata':
        return allowMetadata ? ALLOWED : refuse('metadata', metadataMessage(shown));
      case 'private':
        return allowedPrivate(shown, hostname) ? ALLOWED : refuse('private-network', privateMessage(shown));
      case 'invalid':
        // Only a resolver answer can get here: the URL parser never yields a malformed literal.
        return refuse('dns', dnsMessage(hostname ?? shown));
    }
  }

  async function resolveAll(hostname: string): Promise<readonly string[] | undefined> {
    try {
      const addresses = await resolve(hostname);
      return addresses.length > 0 ? addresses : undefined;
    } catch {
      return undefined;
    }
  }

  /** Strict mode: the name is allowed only if every address it resolves to is. */
  async function checkResolved(hostname: string): Promise<UrlVerdict> {
    const addresses = await resolveAll(hostname);
    if (!addresses) return refuse('dns', dnsMessage(hostname));
    for (const address of addresses) {
      const verdict = judge(classifyAddress(address), address, hostname);
      if (!verdict.allowed) return verdict;
    }
    return ALLOWED;
  }

  /**
   * With private networks allowed, a name is still resolved, only to catch one that points at a
   * metadata endpoint (`instance-data.ec2.internal`, or any public name with an A record for
   * 169.254.169.254): without it, the one thing that stays blocked would be a DNS record away.
   * It costs one lookup per target. A failed lookup lets the target through: the browser may use
   * another resolver (a donated browser on a VPN can see intranet names the server cannot), and if
   * the name does not exist there either, the navigation fails with its own DNS error.
   */
  async function checkForMetadata(hostname: string): Promise<UrlVerdict> {
    const addresses = (await resolveAll(hostname)) ?? [];
    const hit = addresses.find((address) => classifyAddress(address).kind === 'metadata');
    return hit === undefined
      ? ALLOWED
      : refuse('metadata', metadataMessage(`${hostname} resolves to ${hit}`));
  }

  /**
   * A single-label name with private networks closed: a real local name (one the resolver
   * completes with the network's search domains) stays refused as such, but one that nothing
   * resolves is far more often a typo (`examplecom`, `not-a-url`) than an intranet host, and the
   * caller is told that the URL looks wrong, not to open private networks.
   */
  async function checkSingleLabel(hostname: string): Promise<UrlVerdict> {
    const addresses = await resolveAll(hostname);
    if (addresses === undefined) return refuse('not-a-host', notAHostMessage(hostname));
    const metadata = addresses.find((address) => classifyAddress(address).kind === 'metadata');
    return metadata === undefined
      ? refuse('private-network', localNameMessage(hostname))
      : refuse('metadata', metadataMessage(`${hostname} resolves to ${metadata}`));
  }

  async function check(url: URL): Promise<UrlVerdict> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return refuse('scheme', `Only http and https URLs can be scraped, not ${url.protocol}`);
    }
    // `http://a@127.0.0.1:80@evil.com/` goes to evil.com, but people and tools read it otherwise.
    if (url.username !== '' || url.password !== '') {
      return refuse('userinfo', 'URLs with credentials (user:password@) are not allowed');
    }

    const hostname = url.hostname;
    const host = classifyHost(url);
    // For http(s), the URL parser leaves digits and dots only in a dotted quad.
    const isName = !hostname.startsWith('[') && !/^[\d.]+$/.test(hostname);

    switch (host.kind) {
      case 'needs-dns':
        if (!allowPrivateNetworks) return checkResolved(hostname);
        return allowMetadata ? ALLOWED : checkForMetadata(hostname);
      case 'private': {
        const literal = hostname.replace(/^\[|\]$/g, '');
        if (!allowedPrivate(literal, isName ? hostname : undefined)) {
          if (host.range === 'singleLabel') return checkSingleLabel(hostname);
          return refuse('private-network', isName ? localNameMessage(hostname) : privateMessage(hostname));
        }
        return isName && !allowMetadata ? checkForMetadata(hostname) : ALLOWED;
      }
      default:
        return judge(host, hostname);
    }
  }

  return { check, networkPolicy: { allowPrivateNetworks, allowedPrivateHosts: [...allowedPrivateHosts] } };
}

function refuse(reason: UrlRefusalReason, message: string): UrlVerdict {
  return { allowed: false, reason, message };
}

/** How to reach a private target, and what each way opens, for the messages that advise it. */
const PRIVATE_ADVICE =
  'to reach it, list just this host in ALLOWED_PRIVATE_HOSTS, or pair a donated browser that allows it (docs/donated-browsers.md); ALLOW_PRIVATE_NETWORKS=true opens every private and loopback address the server can reach (its own network and admin ports) to every API key';

function privateMessage(shown: string): string {
  return `URL resolves to a private or loopback address (${shown}), which Tabhive does not fetch by default; ${PRIVATE_ADVICE}`;
}

function localNameMessage(hostname: string): string {
  return `URL points to a local or intranet host name (${hostname}), which Tabhive does not fetch by default; ${PRIVATE_ADVICE}`;
}

function notAHostMessage(hostname: string): string {
  return `The URL looks wrong: "${hostname}" is not a host name on the internet (public names have a dot, as in example.com), and no local name answers to it. Check the URL for a typo.`;
}

function metadataMessage(shown: string): string {
  return `URL points to a cloud metadata endpoint (${shown}); these stay blocked even with ALLOW_PRIVATE_NETWORKS=true`;
}

/** Firecrawl's wording for SCRAPE_DNS_RESOLUTION_ERROR. */
function dnsMessage(hostname: string): string {
  return `DNS resolution failed for hostname: ${hostname}. Please check if the domain is valid and accessible.`;
}
