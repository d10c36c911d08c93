import type { Log } from '../../platform/log';
import { urlForLog } from '../../platform/log';
import type { WebhookOutboxStore } from '../../platform/store';
import type { PageChallenge, PageChallengeHandler } from '../../scrape';
import type { JobSpec } from './job-spec';

/** The `type` of the event (docs/wire-contract.md §14.2): one for every job kind. */
export const PAGE_CHALLENGE_EVENT = 'page.challenge';

/** Opens a live view of the task that waits on a challenge (browser-sessions' challenge views). */
export interface ChallengeLiveViews {
  open(challenge: PageChallenge): { liveViewUrl: string; interactiveLiveViewUrl: string; close(): void };
}

/**
 * A crawl's or batch's answer to a challenge page one of its pages meets in a launched browser
 * (docs/browser-control.md#a-challenge-an-operator-passes): a live view of the page's tab, and a
 * `page.challenge` event to the job's webhook with its URLs, while the page waits. Sent with the
 * page events (`events` holding `page`, as it does when absent); undefined when the job has no
 * such webhook, so its challenge pages fail at once as every block page does.
 */
export function pageChallengeWebhook({
  outbox,
  views,
  job,
  spec,
  log,
}: {
  outbox: WebhookOutboxStore;
  views: ChallengeLiveViews | undefined;
  job: { _id: string; teamId: string };
  spec: Pick<JobSpec, 'webhook'>;
  log: Log;
}): PageChallengeHandler | undefined {
  const { webhook } = spec;
  if (views === undefined || webhook === undefined || !webhook.events.includes('page')) return undefined;
  return (challenge) => {
    const view = views.open(challenge);
    outbox
      .enqueue({
        _id: `${job._id}:challenge:${challenge.taskId}`,
        teamId: job.teamId,
        url: webhook.url,
        headers: webhook.headers,
        body: JSON.stringify({
          success: true,
          type: PAGE_CHALLENGE_EVENT,
          id: job._id,
          data: {
            url: challenge.url,
            vendor: challenge.vendor,
            liveViewUrl: view.liveViewUrl,
            interactiveLiveViewUrl: view.interactiveLiveViewUrl,
            expiresAt: challenge.expiresAt.toISOString(),
          },
          metadata: webhook.metadata,
        }),
      })
      .catch((err: unknown) =>
        log.warn('could not queue the page.challenge webhook', {
          jobId: job._id,
          url: urlForLog(challenge.url),
          error: String(err),
        }),
      );
    return () => view.close();
  };
}
