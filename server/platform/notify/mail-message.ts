import { z } from 'zod';

/**
 * One e-mail as the outbox keeps it (the delivery's `body`, JSON): written once when the event is
 * queued, so every retry sends the same message.
 */
export const MailMessage = z.object({
  to: z.email(),
  subject: z.string().min(1).max(998),
  text: z.string(),
  html: z.string().optional(),
  /** RFC 8058 one-click unsubscribe: the URL a mail client POSTs `List-Unsubscribe=One-Click` to. */
  unsubscribeUrl: z.url().optional(),
});
export type MailMessage = z.infer<typeof MailMessage>;
