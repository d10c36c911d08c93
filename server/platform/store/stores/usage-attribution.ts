import { AsyncLocalStorage } from 'node:async_hooks';

/** Whose work this is: the team, and the API key (masked) the request came with. */
export interface UsageAttribution {
  teamId: string;
  /** The key as `maskApiKey` shows it; never the key itself. */
  apiKey: string | undefined;
}

const current = new AsyncLocalStorage<UsageAttribution>();

/**
 * Runs `work` with its usage attributed to a team and key: every credit booked and every model
 * token spent inside it (including in promises it starts) is recorded under them, for the
 * historical usage routes and their `byApiKey` breakdown. The request's authentication opens it;
 * work that outlives the request (the pages of a crawl) reopens it from what its job recorded.
 */
export function attributeUsage<T>(attribution: UsageAttribution, work: () => T): T {
  return current.run(attribution, work);
}

/** The attribution of the work running now, if it has one. */
export function usageAttribution(): UsageAttribution | undefined {
  return current.getStore();
}

/**
 * An API key as usage reports name it: enough to tell a team's keys apart (its prefix and its last
 * four characters), too little to use it.
 */
export function maskApiKey(apiKey: string): string {
  if (apiKey.length < 12) return `…${apiKey.slice(-2)}`;
  const prefix = apiKey.startsWith('fc-') ? 'fc-' : apiKey.slice(0, 3);
  return `${prefix}…${apiKey.slice(-4)}`;
}
