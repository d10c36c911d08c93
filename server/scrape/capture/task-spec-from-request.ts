import type { Action } from '../../../shared/api/v2/actions';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { TaskProfile } from '../../../shared/protocol/browser-profile-state';
import type { PageTaskSpec } from '../../../shared/protocol/messages';

/**
 * Whether the browser may leave out images, video, audio and web fonts (docs/browser-control.md#media): the
 * caller did not ask for them (`blockMedia`, on by default) and nothing requested shows them — a
 * screenshot (the format's or an action's), a printed PDF, the branding format (its logo and fonts).
 */
function skipsMedia(request: ScrapeRequestV2, actions: readonly Action[]): boolean {
  if (!request.blockMedia) return false;
  if (request.formats.some((format) => format.type === 'branding')) return false;
  return !actions.some((action) => action.type === 'screenshot' || action.type === 'pdf');
}

/**
 * The page task for a v2 scrape request: what the browser does before it captures. The screenshot
 * format is one more screenshot action at the end (docs/wire-contract.md §3.2); its image becomes
 * `data.screenshot` (browser-outputs.ts). Settings at their v2 default are left out, as the
 * protocol reads an absent setting as that default. A profile scrape's `profile` is the state the
 * server loaded for it (browser-profile-use.ts), not the request's name.
 */
export function taskSpecFromRequest(
  request: ScrapeRequestV2,
  target: URL,
  profile?: TaskProfile,
): PageTaskSpec {
  const screenshot = request.formats.find((format) => format.type === 'screenshot');
  const actions: Action[] = [
    ...(request.actions ?? []),
    ...(screenshot === undefined
      ? []
      : [
          {
            type: 'screenshot' as const,
            fullPage: screenshot.fullPage,
            ...(screenshot.quality === undefined ? {} : { quality: screenshot.quality }),
            ...(screenshot.viewport === undefined ? {} : { viewport: screenshot.viewport }),
          },
        ]),
  ];
  const headers = request.headers ?? {};
  return {
    url: target.href,
    waitForMs: request.waitFor,
    ...(actions.length > 0 ? { actions } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(request.mobile ? { mobile: true } : {}),
    ...(request.location === undefined ? {} : { location: request.location }),
    ...(request.blockAds ? {} : { blockAds: false }),
    ...(skipsMedia(request, actions) ? { skipMedia: true } : {}),
    ...(request.skipTlsVerification ? {} : { skipTlsVerification: false }),
    ...(request.formats.some((format) => format.type === 'branding') ? { branding: true } : {}),
    ...(profile === undefined ? {} : { profile }),
  };
}
