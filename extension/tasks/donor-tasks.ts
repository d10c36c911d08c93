import { donationRefusal } from '../../shared/donation/donation-refusal';
import type { ResultMessage, TaskMessage } from '../../shared/protocol/messages';
import { recordActivity } from '../ui/activity-log';
import { readDonationSettings } from '../hub/donation-settings';
import { cachedHubSettings } from '../hub/hub-settings';
import { donorNetworkPolicy } from '../network/donor-network-policy';

/**
 * The owner's terms, enforced again in the browser whatever the server sends (the server routes by
 * them too): a paired browser refuses tasks outside its allowed domains, scripts its owner did not
 * allow, and everything while paused; and it logs each task it ran or refused for the owner to see.
 * Launched pool browsers have no owner to ask and run every task.
 */
export function createDonorTasks({ reply }: { reply(message: ResultMessage): void }) {
  /** Paired tasks in flight: their URL and team, for the activity log. */
  const inFlight = new Map<string, { url: string; team: string }>();

  return {
    /**
     * Whether the task may run here, and on what terms: a launched browser's without any, a paired
     * one's inside its owner's domains, which its network policy lets reach private addresses
     * (donor-network-policy.ts). A refused task is answered and logged at once.
     */
    async admit(task: TaskMessage): Promise<
      | { launched: true }
      | {
          launched: false;
          allowedDomains: string[];
          team: string;
          /** Its person is asked to pass a challenge page (their setting; yes unless turned off). */
          askOnChallenges: boolean;
          task: TaskMessage;
        }
      | undefined
    > {
      // The cached copy: read once, renewed when pairing changes it; not a storage read per task.
      const settings = await cachedHubSettings();
      if (settings?.origin !== 'paired') return { launched: true };
      const team = settings.team?.name ?? 'your team';
      const donation = await readDonationSettings();
      const refusal = donationRefusal(donation, task.spec);
      if (refusal !== undefined) {
        reply({
          type: 'result',
          taskId: task.taskId,
          ok: false,
          error: { code: 'TASK_REFUSED', message: refusal },
        });
        await recordActivity({
          time: Date.now(),
          url: task.spec.url,
          team,
          outcome: 'refused',
          detail: refusal,
        });
        return undefined;
      }
      inFlight.set(task.taskId, { url: task.spec.url, team });
      return {
        launched: false,
        allowedDomains: donation.allowedDomains,
        team,
        askOnChallenges: donation.askOnChallenges !== false,
        task: {
          ...task,
          spec: {
            ...task.spec,
            networkPolicy: donorNetworkPolicy(task.spec.networkPolicy, donation.allowedDomains),
          },
        },
      };
    },

    /** Logs how a paired task ended. */
    finished(result: ResultMessage): void {
      const task = inFlight.get(result.taskId);
      if (task === undefined) return;
      inFlight.delete(result.taskId);
      void recordActivity({
        time: Date.now(),
        url: task.url,
        team: task.team,
        outcome: result.ok ? 'ok' : 'failed',
        ...(result.ok ? {} : { detail: result.error.message }),
      });
    },
  };
}
