import type { BrowserProfileOption } from '../../../shared/api/v2/browser-profile-option';
import {
  MAX_PROFILE_STATE_CHARS,
  type BrowserProfileState,
  type TaskProfile,
} from '../../../shared/protocol/browser-profile-state';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { RunOptions } from '../../browsers/hub';
import type { Log } from '../../platform/log';
import {
  StoreUnavailableError,
  type BrowserProfileStore,
  type StoredBrowserProfile,
} from '../../platform/store';
import { applyProfileChanges, isUnchanged, profileChanges } from './profile-changes';

/** Saves that lose to another save of the same profile start over from its state this often. */
export const PROFILE_SAVE_ATTEMPTS = 5;

type RunTask = (spec: PageTaskSpec, options: RunOptions) => Promise<PageCapture>;

/** One scrape's use of a browser profile, from loading it to saving what the page changed. */
export interface BrowserProfileUse {
  /** The state the task loads into the browser, and whether it is read back. */
  readonly task: TaskProfile;
  /** Runs tasks isolated: alone on a launched browser wiped before and after (task-scheduler.ts). */
  isolate(runTask: RunTask): RunTask;
  /**
   * Saves the state the capture brought back (unless saveChanges is false) and returns the
   * capture without it: the profile's cookies go nowhere else (results, the cache, jobs).
   */
  keep(capture: PageCapture): Promise<PageCapture>;
  /** Why the profile could not be saved, for the document's `warning`. */
  warning(): string | undefined;
}

/**
 * Opens the team's profile `option.name` for a scrape: its saved state, expired cookies left out.
 * A name not saved yet starts empty. The store keys every profile by team, so no other team's
 * profile of the same name can ever be loaded here.
 */
export async function openBrowserProfile(
  store: BrowserProfileStore | undefined,
  teamId: string,
  option: BrowserProfileOption,
  log: Log,
): Promise<BrowserProfileUse> {
  if (store === undefined) throw new Error('browser profiles need the browser profile store');
  const loaded = await store.load(teamId, option.name);
  const state = applyProfileChanges(loaded.state, {
    setCookies: [],
    removedCookies: [],
    setItems: [],
    removedItems: [],
  });
  let warning: string | undefined;
  const notSaved = (reason: string) => {
    warning = `The browser profile "${option.name}" was not saved: ${reason}.`;
  };

  const save = async (after: BrowserProfileState) => {
    // Against what this scrape loaded, so that only its own changes are applied.
    const changes = profileChanges(loaded.state, after);
    // Cookies that expired before the scrape were never loaded: they count as removed.
    if (isUnchanged(changes)) return;
    let current: StoredBrowserProfile = loaded;
    for (let attempt = 0; attempt < PROFILE_SAVE_ATTEMPTS; attempt += 1) {
      if (attempt > 0) current = await store.load(teamId, option.name);
      const next = applyProfileChanges(current.state, changes);
      const outcome = await store.replace(teamId, option.name, next, current.version);
      if (outcome === 'saved') return;
      if (outcome === 'too-large') {
        notSaved(
          `its cookies and localStorage would be larger than the ${MAX_PROFILE_STATE_CHARS} characters a profile holds`,
        );
        return;
      }
    }
    notSaved('other scrapes kept saving it at the same time; try again');
  };

  return {
    task: { state, readBack: option.saveChanges },
    isolate: (runTask) => (spec, options) => runTask(spec, { ...options, isolated: true }),
    async keep(capture) {
      const { profileState, ...rest } = capture;
      if (!option.saveChanges) return rest;
      if (profileState === undefined) {
        notSaved('the browser did not send its state back');
        return rest;
      }
      try {
        await save(profileState);
      } catch (err) {
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('browser profile not saved: database unavailable', { error: err.message });
        notSaved('the database is unavailable');
      }
      return rest;
    },
    warning: () => warning,
  };
}
