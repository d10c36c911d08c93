import nodemailer from 'nodemailer';
import type { MailMessage } from './mail-message';

/** Sends e-mail; `id` is the outbox delivery's id, which becomes the Message-ID so a resend is recognisable. */
export interface Mailer {
  send(message: MailMessage, id: string): Promise<void>;
  close(): void;
}

/** An SMTP answer that will not change on a retry (5xx): the message is dropped, not retried. */
export class PermanentMailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentMailError';
  }
}

const SEND_TIMEOUT_MS = 30_000;

/**
 * The mailer over SMTP_URL (`smtp://user:password@host:587`, `smtps://…:465`; nodemailer's URL
 * options such as `?requireTLS=true` apply), sending as SMTP_FROM. The SMTP server is operator
 * configuration, like LLM_BASE_URL, so it is reached directly rather than through the egress that
 * guards callers' URLs (docs/security.md#one-egress).
 */
export function createSmtpMailer({ url, from, host }: { url: string; from: string; host: string }): Mailer {
  const transport = nodemailer.createTransport(
    {
      url,
      connectionTimeout: SEND_TIMEOUT_MS,
      greetingTimeout: SEND_TIMEOUT_MS,
      socketTimeout: SEND_TIMEOUT_MS,
    },
    { from },
  );
  return {
    async send(message, id) {
      try {
        await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          messageId: `<${id.replace(/[^\w.-]/g, '.')}@${host}>`,
          ...(message.unsubscribeUrl === undefined
            ? {}
            : {
                list: { unsubscribe: { url: message.unsubscribeUrl, comment: 'Unsubscribe' } },
                headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
              }),
        });
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        const text = err instanceof Error ? err.message : String(err);
        if (code !== undefined && code >= 500) throw new PermanentMailError(text);
        throw err;
      }
    },
    close: () => transport.close(),
  };
}
