import type { BrowserStateKeeper } from './browser-state-keeper';

/**
 * Sites remembered since a wipe at most; past it every task counts as shaped until the next wipe,
 * since the witness can no longer tell.
 */
export const MAX_WITNESSED_SITES = 50_000;

/**
 * The site whose cookies and storage a URL's requests and documents use, as the witness counts
 * it: the host's last two labels, which is the registrable domain or a wider one (never a
 * narrower one, so two URLs that share state always share a site); the whole host for an address
 * or a one-label name. Undefined for what holds no site state (about:, data:, the extension).
 */
export function siteOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
    if (parsed.protocol === 'blob:') parsed = new URL(parsed.pathname);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return undefined;
  return siteOfHost(parsed.hostname);
}

/** siteOf for a bare host or a cookie's domain (`.example.com`). */
export function siteOfHost(host: string): string {
  const name = host.toLowerCase().replace(/^\./, '').replace(/\.$/, '');
  if (name.startsWith('[') || /^\d+(\.\d+){3}$/.test(name)) return name;
  return name.split('.').slice(-2).join('.');
}

/** What one page task's tab did while the task ran, as the witness saw it. */
interface Watch {
  readonly tabId: number;
  /** Events numbered below this one happened before the task began. */
  readonly since: number;
  /** Another task entered the browser's state while this one ran (a session may set cookies unseen). */
  overlapped: boolean;
  /** The tab's main frame has committed a document since the task began: the old page is gone. */
  ownDocument: boolean;
  /** Sites of the task's own documents: its navigation (redirects included) and its frames. */
  readonly documentSites: Set<string>;
  /** Sites the task's page sent other requests to. */
  readonly requestSites: Set<string>;
  /** Sites anything else touched meanwhile: other tabs, workers, the old page of the tab. */
  readonly touchedByOthers: Set<string>;
}

export interface WitnessedTask {
  /**
   * Whether the task ran in state nothing earlier had shaped for its page, given the URL the tab
   * ended on: no document of its sites had been opened, nor request sent there, nor cookie set
   * since the wipe; its page's other requests met no cookie left from before; nothing else
   * touched those sites while it ran; and no other task ran beside it.
   */
  finish(finalUrl: string): boolean;
  /** The task ended without a capture: stop watching it. */
  drop(): void;
}

/**
 * Watches, in a launched browser, what may leave cookies or storage behind (documents committed in
 * any frame of any tab, requests sent by tabs and workers, cookies written) since the browser's
 * last wipe, so that a page task can report whether its capture is what anyone would get
 * (PageCapture.stateClean); the server shares only such captures with every team
 * (docs/security.md). It errs one way: what it cannot rule out counts as shaped.
 *
 * It starts watching at the first wipe (`forget`), which only launched browsers ever do: a
 * donated browser's browsing is never watched.
 */
export function createStateWitness({ listen }: { listen(witness: StateWitness): void }) {
  let clock = 0;
  let watching = false;
  let overflowed = false;
  /** When each site was first touched since the wipe, and first given a cookie. */
  const touched = new Map<string, number>();
  const cookied = new Map<string, number>();
  /** Tasks inside the state keeper now (page tasks and sessions). */
  let entered = 0;
  const watches = new Set<Watch>();

  const remember = (sites: Map<string, number>, site: string) => {
    if (sites.has(site)) return;
    if (sites.size >= MAX_WITNESSED_SITES) overflowed = true;
    else sites.set(site, clock);
  };
  const touch = (site: string) => {
    clock += 1;
    remember(touched, site);
  };
  const before = (sites: Map<string, number>, site: string, since: number) => {
    const at = sites.get(site);
    return at !== undefined && at < since;
  };

  const witness = {
    /** The state was wiped: nothing is touched any more. Called before the wipe, so what happens meanwhile counts. */
    forget(): void {
      if (!watching) {
        watching = true;
        listen(witness);
      }
      touched.clear();
      cookied.clear();
      overflowed = false;
    },

    /** A document committed in a frame of a tab. */
    committed(tabId: number, frameId: number, url: string): void {
      const site = siteOf(url);
      for (const watch of watches) {
        if (watch.tabId === tabId && frameId === 0) watch.ownDocument = true;
        if (site === undefined) continue;
        if (watch.tabId === tabId && watch.ownDocument) watch.documentSites.add(site);
        else watch.touchedByOthers.add(site);
      }
      if (site !== undefined) touch(site);
    },

    /** A request was sent, by a tab (`tabId` ≥ 0) or a worker (−1); `type` as webRequest names it. */
    requested(tabId: number, url: string, type: string): void {
      const site = siteOf(url);
      if (site === undefined) return;
      for (const watch of watches) {
        // The tab's navigation is the task's, whichever page started it: counted as its own page.
        if (watch.tabId === tabId && type === 'main_frame') watch.documentSites.add(site);
        else if (watch.tabId === tabId && watch.ownDocument)
          (type === 'sub_frame' ? watch.documentSites : watch.requestSites).add(site);
        else watch.touchedByOthers.add(site);
      }
      touch(site);
    },

    /** A cookie was set (not removed) for `domain`. */
    cookieWritten(domain: string): void {
      const site = siteOfHost(domain);
      touch(site);
      remember(cookied, site);
    },

    /** The keeper, counting the tasks inside it: one entering while a page task runs spoils that task. */
    watchKeeper(keeper: BrowserStateKeeper): BrowserStateKeeper {
      return {
        ...keeper,
        async enter(key) {
          const leave = await keeper.enter(key);
          entered += 1;
          for (const watch of watches) watch.overlapped = true;
          let left = false;
          return () => {
            if (!left) entered -= 1;
            left = true;
            leave();
          };
        },
      };
    },

    /** A page task begins in `tabId` (inside the keeper), before its page is loaded. */
    begin(tabId: number, url: string): WitnessedTask {
      clock += 1;
      const watch: Watch = {
        tabId,
        since: clock,
        overlapped: !watching || entered !== 1,
        ownDocument: false,
        documentSites: new Set(),
        requestSites: new Set(),
        touchedByOthers: new Set(),
      };
      const asked = siteOf(url);
      if (asked !== undefined) watch.documentSites.add(asked);
      watches.add(watch);
      return {
        finish(finalUrl) {
          watches.delete(watch);
          const landed = siteOf(finalUrl);
          if (landed !== undefined) watch.documentSites.add(landed);
          const fresh = (site: string) => !watch.touchedByOthers.has(site);
          return (
            !watch.overlapped &&
            !overflowed &&
            [...watch.documentSites].every((site) => fresh(site) && !before(touched, site, watch.since)) &&
            [...watch.requestSites].every((site) => fresh(site) && !before(cookied, site, watch.since))
          );
        },
        drop: () => void watches.delete(watch),
      };
    },
  };
  return witness;
}

export type StateWitness = ReturnType<typeof createStateWitness>;
