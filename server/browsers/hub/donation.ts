import type { Action } from '../../../shared/api/v2/actions';
import { donationRefusal } from '../../../shared/donation/donation-refusal';
import type { DonationTerms } from '../../../shared/protocol/messages';

/** A donated browser as the scheduler sees it: whose it is and what its owner allows. */
export interface Donation extends DonationTerms {
  teamId: string;
}

/** Why a donated browser may not take a task (undefined: it may). Other teams' tasks never. */
export function donatedTaskRefusal(
  donation: Donation,
  task: {
    teamId: string;
    url: string;
    actions: readonly Action[];
    headers?: Readonly<Record<string, string>> | undefined;
  },
): string | undefined {
  if (task.teamId !== donation.teamId) return 'the donated browser belongs to another team';
  return donationRefusal(donation, task);
}
