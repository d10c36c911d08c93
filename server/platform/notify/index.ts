/** Notifications that are not webhooks: e-mail over SMTP (monitor notifications, opt-in mail). */
export { MailMessage } from './mail-message';
export { PermanentMailError, createSmtpMailer } from './smtp-mailer';
export type { Mailer } from './smtp-mailer';
