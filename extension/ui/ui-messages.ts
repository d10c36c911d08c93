import { z } from 'zod';

/**
 * What the popup and the options page ask of the background worker (browser.runtime.sendMessage),
 * and what it answers. The pages hold no state of their own: the worker owns the connection, the
 * pairing and the donation settings, and both sides parse what crosses this edge.
 */

/** What a person allows the team to do with this browser. */
export const DonationSettings = z.object({
  /** Off: the browser stays paired but takes no tasks. */
  enabled: z.boolean(),
  /** Host names (a leading `*.` or a bare domain also covers subdomains) the team's tasks may open. */
  allowedDomains: z.array(z.string().min(1).max(253)).max(500),
  maxTabs: z.number().int().min(1).max(16),
  /** Whether `executeJavascript` actions may run here; refused by default. */
  allowJavascript: z.boolean(),
  /**
   * Whether a task that meets a challenge page asks this browser's person to pass it
   * (tasks/challenge-handoff.ts); absent (settings saved before there was a choice) means yes.
   */
  askOnChallenges: z.boolean().optional(),
});
export type DonationSettings = z.infer<typeof DonationSettings>;

export const DEFAULT_DONATION_SETTINGS: DonationSettings = {
  enabled: true,
  allowedDomains: [],
  maxTabs: 2,
  allowJavascript: false,
  askOnChallenges: true,
};

/** What the badge and the options page show. */
export const ConnectionState = z.enum([
  /** Not paired with any server (and not launched by one). */
  'unpaired',
  'connecting',
  'disconnected',
  /** Connected, no task running. */
  'idle',
  /** Connected, at least one task running. */
  'working',
]);
export type ConnectionState = z.infer<typeof ConnectionState>;

/** Why the browser is not connected, in words a person can act on. */
export const ConnectionProblem = z.object({
  code: z.enum(['unreachable', 'revoked', 'code-expired', 'code-invalid', 'refused', 'incompatible']),
  message: z.string(),
});
export type ConnectionProblem = z.infer<typeof ConnectionProblem>;

export const UiStatus = z.object({
  state: ConnectionState,
  /** How the browser joined its server: launched by it (a pool browser) or paired by a person. */
  origin: z.enum(['launched', 'paired']).optional(),
  /** The server's base URL as the person typed it (http or https). */
  serverUrl: z.string().optional(),
  team: z.string().optional(),
  runningTasks: z.number().int().min(0),
  problem: ConnectionProblem.optional(),
  donation: DonationSettings,
});
export type UiStatus = z.infer<typeof UiStatus>;

/** One task this browser ran, newest first in the log; kept in local storage, bounded. */
export const ActivityEntry = z.object({
  time: z.number(),
  url: z.string(),
  team: z.string(),
  outcome: z.enum(['ok', 'failed', 'refused']),
  detail: z.string().optional(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

/** A page the popup scraped by hand, saved to the paired team's index on the server. */
export const SavedPage = z.object({
  url: z.url(),
  title: z.string(),
  description: z.string().optional(),
  markdown: z.string(),
});
export type SavedPage = z.infer<typeof SavedPage>;

export const UiRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('getStatus') }),
  z.object({ type: z.literal('pair'), serverUrl: z.string(), code: z.string() }),
  z.object({ type: z.literal('unpair') }),
  z.object({ type: z.literal('saveDonation'), settings: DonationSettings }),
  z.object({ type: z.literal('getActivity') }),
  z.object({ type: z.literal('savePage'), page: SavedPage }),
]);
export type UiRequest = z.infer<typeof UiRequest>;

/** Answers, by request type. Failures carry a problem a page can show as is. */
export const UiResponse = {
  getStatus: UiStatus,
  pair: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), status: UiStatus }),
    z.object({ ok: z.literal(false), problem: ConnectionProblem }),
  ]),
  unpair: UiStatus,
  saveDonation: UiStatus,
  getActivity: z.object({ entries: z.array(ActivityEntry) }),
  savePage: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true) }),
    z.object({ ok: z.literal(false), message: z.string() }),
  ]),
} as const;
