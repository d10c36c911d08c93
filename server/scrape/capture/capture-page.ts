import type { BrowserProfileOption } from '../../../shared/api/v2/browser-profile-option';
import type { PageCapture } from '../../../shared/protocol/messages';
import { errors } from '../../platform/errors';
import type { Log } from '../../platform/log';
import type { BrowserProfileStore } from '../../platform/store';
import type { PageDerivation } from '../derive';
import { openBrowserProfile } from './browser-profile-use';
import type { CachedCapture, CaptureOutcome } from './cached-capture';
import {
  type FastCapture,
  type FreshCaptureDeps,
  type FreshCapturePlan,
  freshCapture,
} from './fresh-capture';
import { refuseImageForOcr } from './image-parser';

/** What the capture stage reads of the scrape plan (scrape-plan.ts). */
export interface CapturePlan extends FreshCapturePlan {
  /** The page already in hand (an upload): no cache and no fetch. */
  readonly given: PageCapture | undefined;
  /** The team's browser profile the page is taken with (never for a page in hand). */
  readonly profile: BrowserProfileOption | undefined;
  /** The image parser (OCR) was asked for. */
  readonly imageParser: boolean;
}

export interface CaptureDeps extends FreshCaptureDeps {
  cachedCapture: CachedCapture;
  /** The teams' named browser profiles (the `profile` option); required for such scrapes. */
  browserProfiles?: BrowserProfileStore | undefined;
  log: Log;
}

/** The page as captured, and what the later stages need to know of how. */
export interface CapturedPage extends CaptureOutcome {
  /** The formats the HTTP fast path derived with this very capture, when it took it. */
  readonly fastDerived: PageDerivation | undefined;
  /** Why the browser profile could not be saved, for the document's `warning`. */
  readonly profileWarning: string | undefined;
}

/**
 * The capture stage: the page in hand, or the cache's copy, or a fresh capture (fresh-capture.ts)
 * kept in the cache when it may be. A profile's page shows the profile's login: a launched browser
 * only, never the fast path or the cache (cache-policy.ts), and what it changed is saved back
 * (browser-profile-use.ts).
 */
export async function capturePage(plan: CapturePlan, deps: CaptureDeps): Promise<CapturedPage> {
  // A profile's page needs a launched browser, and only the team's donated browser may take this URL.
  if (plan.donated && plan.profile !== undefined && plan.given === undefined) {
    throw errors.donatedBrowserRefused(
      `${plan.target.hostname} is reached only through the team's donated browser, which does not run browser profiles`,
    );
  }
  const profile =
    plan.profile === undefined
      ? undefined
      : await openBrowserProfile(deps.browserProfiles, plan.teamId, plan.profile, deps.log);
  const fast: { taken?: FastCapture } = {};
  const taken: CaptureOutcome =
    plan.given !== undefined
      ? { capture: plan.given, scope: plan.teamId, placeholder: false }
      : await deps.cachedCapture(
          plan.request,
          plan.teamId,
          async () => {
            const fresh = await freshCapture(plan, deps, profile);
            fast.taken = fresh.fast;
            return fresh;
          },
          undefined,
          // The team's logged-in browser takes this URL: no anonymous cached copy either.
          { teamOnly: plan.donated },
        );
  refuseImageForOcr(taken.capture, plan.imageParser);
  return {
    ...taken,
    fastDerived: fast.taken?.capture === taken.capture ? fast.taken.derived : undefined,
    profileWarning: profile?.warning(),
  };
}
