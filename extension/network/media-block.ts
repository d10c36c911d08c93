import { browser } from 'wxt/browser';
import { readHubSettings } from '../hub/hub-settings';
import { skipMediaRules } from './media-rules';
import { STANDING_MEDIA_RULE_IDS, dnr } from './task-network-rules';
import { onceUntilFailure } from './once-until-failure';

/**
 * A launched browser, whose every tab is a task's, leaves media out in all tabs with standing rules,
 * so that the usual task (a text capture) needs no rule of its own and no DNR call; a task that
 * needs media (a screenshot, a session, a page handed to a person) lifts them for its tab with an
 * allow rule. Donated browsers keep per-task rules: a standing rule would reach the donor's own
 * tabs. Resolves whether the standing rules are in place. The extension's own requests are exempt.
 */
export const standingMediaBlock: () => Promise<boolean> = onceUntilFailure(async () => {
  if ((await readHubSettings())?.origin !== 'launched') return false;
  const present = new Set((await dnr().getSessionRules()).map((rule) => rule.id));
  if (!STANDING_MEDIA_RULE_IDS.every((id) => present.has(id))) {
    await dnr().updateSessionRules({
      removeRuleIds: [...STANDING_MEDIA_RULE_IDS],
      addRules: skipMediaRules(STANDING_MEDIA_RULE_IDS, {
        excludedInitiatorDomains: [browser.runtime.id],
      }),
    });
  }
  return true;
});

/** What a task's own rules must do about media, given the standing rule (if any). */
export async function taskMediaRules(
  skipMedia: boolean | undefined,
): Promise<{ blockMedia?: boolean; allowMedia?: boolean }> {
  const standing = await standingMediaBlock();
  if (skipMedia === true) return standing ? {} : { blockMedia: true };
  return standing ? { allowMedia: true } : {};
}
