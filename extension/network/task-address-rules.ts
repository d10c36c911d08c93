import ipaddr from 'ipaddr.js';
import type { Browser } from 'wxt/browser';
import { ipv4CidrRegex, urlHostRegex } from '../../shared/url/address-regex';
import { METADATA_ADDRESSES } from '../../shared/url/classify-address';
import { STRICT_NETWORK_POLICY, type NetworkPolicy } from '../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../shared/url/private-allow-list';
import { ALL_RESOURCE_TYPES } from './task-network-rules';

type Rule = Browser.declarativeNetRequest.Rule;

/**
 * Every IPv4 range that classifyAddress calls private (ipaddr.js's special ranges), one DNR rule
 * each: Chromium compiles regexFilter into RE2 with a small memory cap, so short patterns it is.
 */
const PRIVATE_IPV4_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '192.175.48.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '224.0.0.0/3', // multicast 224/4, reserved 240/4 and the broadcast address
];

/**
 * IPv6 literals outside global unicast: a first group of one to three digits (below 2000::, which
 * covers ::1, ::, ::ffff:a.b.c.d, NAT64 64:ff9b::), of four digits not starting with 2 or 3
 * (fc00::/7, fe80::/10, ff00::/8...), and the special blocks inside 2000::/3 (IETF 2001::/23 with
 * Teredo, documentation 2001:db8::/32, 6to4 2002::/16). Stricter than the server, which lets a
 * public address inside NAT64, 6to4 or IPv4-mapped form through: literals like that are rare.
 */
const PRIVATE_IPV6_HOSTS = [
  '\\[(?:[0-9a-f]{1,3}:|[014-9a-f][0-9a-f]{3}:|:)[^\\]]*\\]',
  '\\[(?:2001:(?:[0-9a-f]{1,2}|1[0-9a-f]{2}|db8)?:|2002:)[^\\]]*\\]',
];

/** Names that are local by convention (classify-host.ts), with subdomains and a final dot. */
const LOCAL_NAME_HOST = '(?:[^/?#:@\\[\\]]*\\.)?(?:localhost|local|internal|home\\.arpa|lan|localdomain)\\.?';
/** Single-label names, which resolvers complete with the local network's search domains. */
const SINGLE_LABEL_HOST = '[^/?#:@.\\[\\]]+\\.?';
const METADATA_NAME_HOST = '(?:metadata\\.google\\.internal|metadata)\\.?';

const escapeDots = (address: string) => address.replaceAll('.', '\\.');

/** Metadata endpoints as a URL host, with the IPv6 spellings of the IPv4 ones. */
function metadataHosts(): string[] {
  const hosts: string[] = [];
  for (const address of METADATA_ADDRESSES) {
    const parsed = ipaddr.parse(address);
    if (parsed instanceof ipaddr.IPv4) {
      const [a, b, c, d] = parsed.octets as [number, number, number, number];
      const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
      hosts.push(escapeDots(address), `\\[(?:::ffff:|64:ff9b::|::)${hex}\\]`);
    } else hosts.push(`\\[${parsed.toString()}\\]`);
  }
  return hosts;
}

/**
 * Priorities, above the ad rules (block 1, and 2 for the allow rule that lifts them for a tab with
 * blockAds off) and the media rules (3, where a tab's allow rule lifts the media block), neither of
 * whose allow rules may lift these: blocks 4, allow-list exceptions 5, metadata 6 (nothing excepts
 * it). The task's header rule sits above all (task-network-rules.ts), since DNR leaves
 * modifyHeaders rules that rank below a matching allow rule unapplied.
 */
export const ADDRESS_BLOCK_PRIORITY = 4;
const ALLOW_PRIORITY = 5;
const METADATA_PRIORITY = 6;

/** At most this many IP entries of the allow list become browser rules; names need one rule in all. */
const MAX_ALLOWED_RANGES = 32;

/**
 * The patterns a task's tab is refused before any request leaves the browser: IP literals and
 * local names the policy refuses, and metadata endpoints always. Hosts whose names resolve to
 * private addresses are invisible here; the address guard (task-address-guard.ts) catches those.
 */
export function addressRulePatterns(policy: NetworkPolicy = STRICT_NETWORK_POLICY): {
  block: { regexFilter: string; priority: number }[];
  allow: { regexFilter?: string; requestDomains?: string[]; priority: number }[];
} {
  const block = [METADATA_NAME_HOST, ...metadataHosts()].map((host) => ({
    regexFilter: urlHostRegex([host]),
    priority: METADATA_PRIORITY,
  }));
  if (policy.allowPrivateNetworks) return { block, allow: [] };
  const hosts = [
    ...PRIVATE_IPV4_RANGES.map(ipv4CidrRegex),
    ...PRIVATE_IPV6_HOSTS,
    LOCAL_NAME_HOST,
    SINGLE_LABEL_HOST,
  ];
  block.push(
    ...hosts.map((host) => ({ regexFilter: urlHostRegex([host]), priority: ADDRESS_BLOCK_PRIORITY })),
  );

  const allowList = parsePrivateAllowList(policy.allowedPrivateHosts);
  const allow: { regexFilter?: string; requestDomains?: string[]; priority: number }[] = [];
  if (allowList.names.length > 0) {
    allow.push({ requestDomains: [...allowList.names], priority: ALLOW_PRIORITY });
  }
  for (const [network, bits] of allowList.ranges.slice(0, MAX_ALLOWED_RANGES)) {
    // IPv6 ranges other than single addresses have no short pattern over compressed text; they
    // stay blocked in the browser (safe side), and the server still honours them.
    if (network instanceof ipaddr.IPv4) {
      const host = ipv4CidrRegex(`${network.toString()}/${bits}`);
      allow.push({ regexFilter: urlHostRegex([host]), priority: ALLOW_PRIORITY });
    } else if (bits === 128) {
      allow.push({ regexFilter: urlHostRegex([`\\[${network.toString()}\\]`]), priority: ALLOW_PRIORITY });
    }
  }
  return { block, allow };
}

/** How many rule ids addressRules needs for this policy. */
export function addressRuleCount(policy: NetworkPolicy | undefined): number {
  const { block, allow } = addressRulePatterns(policy);
  return block.length + allow.length;
}

/**
 * The DNR session rules of a policy: for one task's tab (`tabId`, ids from allocateTaskRuleIds),
 * or for every request of the browser but those its extension starts (`exceptInitiator`, the
 * extension's id: a launched browser's standing rules, standing-address-rules.ts).
 */
export function buildAddressRules({
  ruleIds,
  policy,
  ...where
}: {
  ruleIds: readonly number[];
  /** Absent: the strict default. */
  policy: NetworkPolicy | undefined;
} & ({ tabId: number } | { exceptInitiator: string })): Rule[] {
  const { block, allow } = addressRulePatterns(policy);
  const ids = [...ruleIds];
  const nextId = () => {
    const id = ids.shift();
    if (id === undefined) throw new Error('too few rule ids for the address rules');
    return id;
  };
  const condition = {
    ...('tabId' in where ? { tabIds: [where.tabId] } : { excludedInitiatorDomains: [where.exceptInitiator] }),
    resourceTypes: ALL_RESOURCE_TYPES,
  };
  return [
    ...block.map(
      ({ regexFilter, priority }) =>
        ({
          id: nextId(),
          priority,
          action: { type: 'block' },
          condition: { ...condition, regexFilter },
        }) as Rule,
    ),
    ...allow.map(
      ({ priority, ...match }) =>
        ({
          id: nextId(),
          priority,
          action: { type: 'allow' },
          condition: { ...condition, ...match },
        }) as Rule,
    ),
  ];
}
