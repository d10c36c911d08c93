import type { Browser } from 'wxt/browser';

type Rule = Browser.declarativeNetRequest.Rule;
type ResourceType = Browser.declarativeNetRequest.ResourceType;

/**
 * What a page task leaves out when nothing it returns shows it (`skipMedia`,
 * docs/browser-control.md#media): images, video and audio, and web fonts. Their download, decoding
 * and painting are most of what a picture-heavy page costs the browser, and a text capture reads
 * none of it.
 */
export const MEDIA_RESOURCE_TYPES = ['image', 'media', 'font'] as ResourceType[];

/**
 * A transparent 1×1 GIF, which images are answered with instead of being blocked: Chromium hides
 * an image whose request an extension blocked (`display: none`), and the capture leaves out what is
 * not displayed, so a blocked image would be missing from the page's HTML and Markdown. An answered
 * one keeps its element, its address and its `load` event.
 */
export const TRANSPARENT_GIF =
  'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * The media rules' priority: above the allow rule that lifts the ad block for a tab (2), which must
 * not bring media back, and below the address blocks (task-address-rules.ts, 4), which a tab's
 * allow rule for media must not lift. The skip rules and the allow rule share it: at equal priority
 * DNR lets an allow rule win over a block or a redirect.
 */
export const MEDIA_RULE_PRIORITY = 3;

/**
 * The two rules that leave media out where `condition` matches: video, audio and fonts blocked,
 * images answered with TRANSPARENT_GIF. `ids`: [block rule, image rule].
 */
export function skipMediaRules(
  [blockId, imageId]: readonly [number, number],
  condition: Rule['condition'],
): Rule[] {
  return [
    {
      id: blockId,
      priority: MEDIA_RULE_PRIORITY,
      action: { type: 'block' },
      condition: { ...condition, resourceTypes: ['media', 'font'] as ResourceType[] },
    } as Rule,
    {
      id: imageId,
      priority: MEDIA_RULE_PRIORITY,
      action: { type: 'redirect', redirect: { url: TRANSPARENT_GIF } },
      condition: { ...condition, resourceTypes: ['image'] as ResourceType[] },
    } as Rule,
  ];
}

/** The rule that brings media back in one tab, over a launched browser's standing skip rules. */
export function allowMediaRule(id: number, tabId: number): Rule {
  return {
    id,
    priority: MEDIA_RULE_PRIORITY,
    action: { type: 'allow' },
    condition: { tabIds: [tabId], resourceTypes: MEDIA_RESOURCE_TYPES },
  } as Rule;
}
