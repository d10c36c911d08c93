import { z } from 'zod';
import { SessionInput } from '../../../shared/protocol/messages';

/** What the live view page sends on its socket. The first message must be `auth`. */
export const ViewerMessage = z.discriminatedUnion('type', [
  /** The team's API key, which the page asked the person for. */
  z.object({ type: z.literal('auth'), apiKey: z.string().min(1).max(1000) }),
  /** The page drew this frame; the next may come. */
  z.object({ type: z.literal('ack'), frameSessionId: z.number().int() }),
  /** Mouse, keys and typed text, in the tab's CSS pixels (interactive view only). */
  z.object({ type: z.literal('input'), input: SessionInput }),
  /** The address bar (interactive view only). */
  z.object({ type: z.literal('navigate'), url: z.string().min(1).max(8192) }),
  /** The page is open and visible: watching counts as activity even while nothing moves. */
  z.object({ type: z.literal('ping') }),
]);
export type ViewerMessage = z.infer<typeof ViewerMessage>;

/** Close codes of the live view socket, which the page turns into words. */
export const ViewerCloseCode = {
  /** No key, or not a key of any team. */
  UNAUTHORIZED: 4401,
  /** A key of another team than the session's. */
  FORBIDDEN: 4403,
  /** The session ended (deleted, timed out, its browser went away). */
  ENDED: 4410,
  /** The page sent something that is not a viewer message. */
  BAD_MESSAGE: 4400,
} as const;

/** The address bar's text as an address: a bare host gets https://. Undefined when it is not http(s). */
export function addressFromBar(text: string): string | undefined {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(withScheme);
  return parsed.success ? parsed.data : undefined;
}
