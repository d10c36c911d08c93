import type { Browser } from 'wxt/browser';
import { allowMediaRule, skipMediaRules } from './media-rules';

type Dnr = typeof Browser.declarativeNetRequest;
type Rule = Browser.declarativeNetRequest.Rule;

/** chrome.declarativeNetRequest, for every module that keeps rules. */
export function dnr(): Dnr {
  // chrome.* directly: webextension-polyfill passes declarativeNetRequest through untouched anyway.
  return (globalThis as unknown as { chrome: { declarativeNetRequest: Dnr } }).chrome.declarativeNetRequest;
}

/**
 * Id of the one ad-block rule a launched browser keeps for all its tabs (standing-ad-block.ts):
 * above the ids tasks count up from, which skip ids in use anyway.
 */
export const STANDING_AD_BLOCK_RULE_ID = 2 ** 31 - 2;
/** Ids of the two media rules a launched browser keeps for all its tabs (media-block.ts). */
export const STANDING_MEDIA_RULE_IDS = [2 ** 31 - 3, 2 ** 31 - 4] as const;
/**
 * Ids of a launched browser's browser-wide address rules (standing-address-rules.ts): a fixed
 * block, so that a restarted worker finds and replaces the rules its predecessor left.
 */
export const STANDING_ADDRESS_RULE_IDS = { first: 2 ** 31 - 1_000, count: 200 } as const;
export const isStandingAddressRuleId = (id: number) =>
  id >= STANDING_ADDRESS_RULE_IDS.first &&
  id < STANDING_ADDRESS_RULE_IDS.first + STANDING_ADDRESS_RULE_IDS.count;
export const isStandingRuleId = (id: number) =>
  id === STANDING_AD_BLOCK_RULE_ID ||
  (STANDING_MEDIA_RULE_IDS as readonly number[]).includes(id) ||
  isStandingAddressRuleId(id);

/**
 * Rules per task: 0 = request headers, 1 = ad and tracker block (or the allow rule lifting it),
 * 2 = a donor's domain fence, 3 = the same fence for tabs the task's page opens, 4 and 5 = the
 * media rules (media-rules.ts), or 4 = the allow rule lifting a launched browser's standing ones.
 */
export const RULES_PER_TASK = 6;
/** Rule ids count up per worker; the ids in use (a previous worker's too) are skipped. */
let nextRuleId = 1;

/**
 * `count` fresh rule ids. Tab ids would be unique too, but they outgrow the 32-bit integers DNR
 * takes for ids. Allocation is synchronous after one read, so concurrent callers never share ids.
 */
export async function allocateRuleIds(count: number): Promise<number[]> {
  const inUse = new Set((await dnr().getSessionRules()).map((rule) => rule.id));
  const ids: number[] = [];
  while (ids.length < count) {
    if (nextRuleId >= STANDING_ADDRESS_RULE_IDS.first) nextRuleId = 1;
    const id = nextRuleId;
    nextRuleId += 1;
    if (!inUse.has(id)) ids.push(id);
  }
  return ids;
}

/** The RULES_PER_TASK ids buildTaskRules takes. */
export const allocateTaskRuleIds = () => allocateRuleIds(RULES_PER_TASK);

/** Every resource type, main frame included: DNR leaves main_frame out when none are listed. */
export const ALL_RESOURCE_TYPES = [
  'main_frame',
  'sub_frame',
  'stylesheet',
  'script',
  'image',
  'font',
  'object',
  'xmlhttprequest',
  'ping',
  'csp_report',
  'media',
  'websocket',
  'webtransport',
  'webbundle',
  'other',
] as Browser.declarativeNetRequest.ResourceType[];

/**
 * The site a task's caller headers are for: the task URL's host, less a leading `www.` so that
 * `example.com` and `www.example.com` are one site. DNR's `requestDomains` matches a domain and
 * its subdomains, so the headers go to the host and its subdomains, and for a `www.` host to the
 * bare domain and its other subdomains too (`api.example.com` for `www.example.com`); never to
 * another site. A `www.` host whose bare name would be one label (`www.localhost`) stays whole.
 * Without a public suffix list, a `www.` host right under a suffix that many owners share
 * (`www.github.io`) stretches the site to the whole suffix; such hosts are rare. IPv6 hosts keep
 * their brackets, which DNR compares too.
 */
export function headerSite(url: string): string {
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  const bare = host.startsWith('www.') ? host.slice('www.'.length) : host;
  return bare.includes('.') ? bare : host;
}

/**
 * Session rules for one task's tab (`tabIds`), so no other tab, and no other task, is affected:
 * the caller's headers set on the requests to the task's own site (headerSite: neither third-party
 * subresources nor a redirect to another site get an Authorization or Cookie meant for the
 * target), and requests to known ad domains blocked (never the page itself: a block rule without
 * resource types leaves the main frame alone). `allowAds` lifts a launched browser's standing ad
 * block (standing-ad-block.ts) for this tab instead; the header rule outranks that allow rule,
 * which would otherwise switch it off too.
 */
export function buildTaskRules({
  ruleIds,
  tabId,
  url,
  headers,
  blockDomains,
  allowAds = false,
  blockMedia = false,
  allowMedia = false,
  fenceDomains,
  personsTabIds,
}: {
  /** From allocateTaskRuleIds. */
  ruleIds: readonly number[];
  tabId: number;
  /** The task's URL: the site the headers are for. */
  url: string;
  headers?: Record<string, string> | undefined;
  blockDomains?: readonly string[] | undefined;
  allowAds?: boolean | undefined;
  /** Leave images, video, audio and fonts out in the tab (a task with `skipMedia`, media-rules.ts). */
  blockMedia?: boolean | undefined;
  /** Lift a launched browser's standing media block for the tab. */
  allowMedia?: boolean | undefined;
  /**
   * A donated browser's allowed domains: the tab may not navigate (links, redirects, actions,
   * scripts) to a page elsewhere, nor frame one (an iframe shows whatever the donor's login
   * shows there, in the page the task captures); subresources a page loads are not affected.
   */
  fenceDomains?: readonly string[] | undefined;
  /** A donated browser's tabs open when the task started, which the popup fence leaves alone. */
  personsTabIds?: readonly number[] | undefined;
}): Rule[] {
  const [headerRuleId, blockRuleId, fenceRuleId, popupFenceRuleId, mediaRuleId, imageRuleId] = ruleIds as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const rules: Rule[] = [];
  const entries = Object.entries(headers ?? {});
  if (entries.length > 0) {
    rules.push({
      id: headerRuleId,
      // Above every allow rule that can match the tab (lifting ads or media here, the address
      // rules' allow list in task-address-rules.ts): DNR leaves modifyHeaders rules that rank below
      // a matching allow rule unapplied.
      priority: 7,
      action: {
        type: 'modifyHeaders',
        requestHeaders: entries.map(([header, value]) => ({ header, operation: 'set', value })),
      },
      condition: { tabIds: [tabId], requestDomains: [headerSite(url)], resourceTypes: ALL_RESOURCE_TYPES },
    } as Rule);
  }
  if (blockDomains !== undefined && blockDomains.length > 0) {
    rules.push({
      id: blockRuleId,
      priority: 1,
      action: { type: 'block' },
      // Third-party only: a page is never cut off from its own domain, even one on the list.
      condition: { tabIds: [tabId], requestDomains: [...blockDomains], domainType: 'thirdParty' },
    } as Rule);
  }
  if (allowAds) {
    rules.push({
      id: blockRuleId,
      priority: 2,
      action: { type: 'allow' },
      condition: { tabIds: [tabId] },
    } as Rule);
  }
  if (blockMedia) {
    rules.push(...skipMediaRules([mediaRuleId, imageRuleId], { tabIds: [tabId] }));
  } else if (allowMedia) {
    rules.push(allowMediaRule(mediaRuleId, tabId));
  }
  if (fenceDomains !== undefined) {
    rules.push({
      id: fenceRuleId,
      // Above the URL policy's allow-list exceptions (task-address-rules.ts, priority 5): the
      // operator's private hosts must not open a donor's fence.
      priority: 6,
      action: { type: 'block' },
      condition: {
        tabIds: [tabId],
        resourceTypes: ['main_frame', 'sub_frame'],
        ...(fenceDomains.length > 0 ? { excludedRequestDomains: [...fenceDomains] } : {}),
      },
    } as Rule);
  }
  if (fenceDomains !== undefined && fenceDomains.length > 0 && personsTabIds !== undefined) {
    // A popup the task's page opens (a clicked target=_blank link, window.open) is a new tab, with
    // none of the rules above; it is closed at once (popup-guard.ts), but its first request could
    // leave before that, and its tab id is not known before it does. So while the task runs, no
    // tab but the task's and the person's tabs open at its start may load a page outside the
    // allowed domains, whoever started the load. Not by initiator: a popup from a sandboxed frame
    // has an opaque one, which no initiatorDomains condition matches. The cost: a tab the person
    // opens during the task (seconds) reaches only the allowed domains until the task ends.
    rules.push({
      id: popupFenceRuleId,
      priority: 6,
      action: { type: 'block' },
      condition: {
        resourceTypes: ['main_frame', 'sub_frame'],
        excludedRequestDomains: [...fenceDomains],
        excludedTabIds: [tabId, ...personsTabIds],
      },
    } as Rule);
  }
  return rules;
}

export async function addTaskRules(rules: Rule[]): Promise<void> {
  if (rules.length > 0) await dnr().updateSessionRules({ addRules: rules });
}

/** Removes rules by id; ids without a rule are ignored, so this is safe to repeat. */
export async function removeTaskRules(ruleIds: readonly number[]): Promise<void> {
  if (ruleIds.length > 0) await dnr().updateSessionRules({ removeRuleIds: [...ruleIds] });
}

/**
 * Session rules tasks hold: a launched browser's standing rules (ads, addresses) are not among them, nor are
 * `exclude` (the address rules of idle pooled tabs).
 */
export async function countSessionRules(exclude: readonly number[] = []): Promise<number> {
  const skip = new Set(exclude);
  return (await dnr().getSessionRules()).filter((rule) => !skip.has(rule.id) && !isStandingRuleId(rule.id))
    .length;
}
