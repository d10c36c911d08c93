import { browser } from 'wxt/browser';
import { STRICT_NETWORK_POLICY, type NetworkPolicy } from '../../shared/url/network-policy';
import { addressRuleCount, buildAddressRules } from './task-address-rules';
import { STANDING_ADDRESS_RULE_IDS, dnr, isStandingAddressRuleId } from './task-network-rules';

let installed: { policyKey: string; done: Promise<void> } | undefined;

/**
 * A launched browser's URL policy for every request it makes, not only its task tabs': the address
 * rules of task-address-rules.ts without `tabIds`. A task tab's rules do not follow what the page
 * starts outside the tab: a popup opened by a click, a service worker's fetches (tab -1), a shared
 * worker. In a launched browser every page is a task's, so one browser-wide set holds them all.
 * The extension's own requests (the hub socket, its package files) are left out by initiator.
 * Donated browsers never get these: they would fence the person's own browsing.
 *
 * Kept per policy (every task of a server carries the same one, so this is one DNR call per
 * browser), and in a fixed id block, so a restarted worker replaces what the last one left.
 */
export function ensureStandingAddressRules(policy: NetworkPolicy | undefined): Promise<void> {
  const effective = policy ?? STRICT_NETWORK_POLICY;
  const policyKey = JSON.stringify(effective);
  if (installed?.policyKey === policyKey) return installed.done;
  const done = (async () => {
    const count = addressRuleCount(effective);
    if (count > STANDING_ADDRESS_RULE_IDS.count) throw new Error('too many standing address rules');
    const rules = buildAddressRules({
      ruleIds: Array.from({ length: count }, (_, index) => STANDING_ADDRESS_RULE_IDS.first + index),
      policy: effective,
      exceptInitiator: browser.runtime.id,
    });
    // Only the address rules' own block: the standing ad block's id lies above it.
    const previous = (await dnr().getSessionRules()).map((rule) => rule.id).filter(isStandingAddressRuleId);
    await dnr().updateSessionRules({ removeRuleIds: previous, addRules: rules });
  })();
  installed = { policyKey, done };
  done.catch(() => {
    if (installed?.done === done) installed = undefined;
  });
  return done;
}
