import type { Browser } from 'wxt/browser';
import { adDomains } from './ad-domains';
import { readHubSettings } from '../hub/hub-settings';
import { STANDING_AD_BLOCK_RULE_ID, dnr } from './task-network-rules';
import { onceUntilFailure } from './once-until-failure';

type Rule = Browser.declarativeNetRequest.Rule;

/**
 * Adding a block rule of ~20k domains costs Chromium 150 ms on an idle machine and far more under
 * load (measured: +500–800 ms per task); a launched browser, whose every tab is a task's, keeps one
 * rule for all tabs instead, and a task with blockAds off lifts it for its own tab with an allow
 * rule (task-network-rules.ts). Donated browsers keep per-task rules: a standing rule would block
 * ads in the donor's own tabs. Resolves whether the standing rule is in place. The rule is a
 * session rule, so it outlives a restarted worker; it is added only when missing.
 */
export const standingAdBlock: () => Promise<boolean> = onceUntilFailure(async () => {
  if ((await readHubSettings())?.origin !== 'launched') return false;
  const rules = await dnr().getSessionRules();
  if (!rules.some((rule) => rule.id === STANDING_AD_BLOCK_RULE_ID)) {
    const rule = {
      id: STANDING_AD_BLOCK_RULE_ID,
      priority: 1,
      action: { type: 'block' },
      // Third-party only: a page is never cut off from its own domain, even one on the list.
      condition: { requestDomains: await adDomains(), domainType: 'thirdParty' },
    } as Rule;
    await dnr().updateSessionRules({ addRules: [rule] });
  }
  return true;
});

/** What a task's own rules must do about ads, given the standing rule (if any). */
export async function taskAdRules(
  blockAds: boolean | undefined,
): Promise<{ blockDomains?: string[]; allowAds?: boolean }> {
  const standing = await standingAdBlock();
  if (blockAds === false) return standing ? { allowAds: true } : {};
  return standing ? {} : { blockDomains: await adDomains() };
}
