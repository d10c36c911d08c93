import type { BrowserClass } from '../../../shared/protocol/messages';

/**
 * A challenge page a launched browser's task met and now waits on, for an operator to pass it in
 * the live view (docs/browser-control.md#a-challenge-an-operator-passes).
 */
export interface PageChallenge {
  /** The page task whose tab shows the challenge: the live view's commands go to it. */
  taskId: string;
  teamId: string;
  /** The page that showed it (the scrape's URL, after redirects). */
  url: string;
  /** Who asks: Cloudflare, DataDome, … (shared/block-pages/). */
  vendor: string;
  browserClass: BrowserClass;
  /** When the task stops waiting and fails with the block page. */
  expiresAt: Date;
}

/**
 * A scrape caller's answer to a challenge its page waits on (a crawl's or batch's webhook). Called
 * once per task that meets one; the function it returns is called once that task is over, passed
 * or not.
 */
export type PageChallengeHandler = (challenge: PageChallenge) => () => void;

/** The `challenge` events browsers send for running tasks (the hub's session events, by task id). */
export interface TaskChallengeSignals {
  /** Listens for the task's challenge events until the function returned is called. */
  watch(
    taskId: string,
    listener: (event: { url: string; vendor: string; waitMs: number }) => void,
  ): () => void;
}
