import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the loopback SMTP server received, as a test reads it. */
export interface ReceivedMail {
  to: string;
  subject: string;
  messageId: string;
  listUnsubscribe: string;
  /** The text part, quoted-printable decoded. */
  text: string;
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** An RFC 2047 header value (`=?UTF-8?Q?…?=` words, as nodemailer writes quotes) as text. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, word: string) =>
      decodeQuotedPrintable(word.replace(/_/g, ' ')),
    );
}

/** The headers and text part of a raw message nodemailer wrote (ASCII mail; multipart/alternative). */
export function readMail(raw: string): ReceivedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
  const body = rest.join('\n\n');
  const boundary = /boundary="?([^";\s]+)"?/i.exec(unfolded)?.[1];
  const parts = boundary === undefined ? [body] : body.split(`--${boundary}`);
  const plain = parts.find((part) => /Content-Type: text\/plain/i.test(part)) ?? body;
  const text =
    boundary === undefined
      ? plain
      : plain
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n\n');
  return {
    to: header('To'),
    subject: decodeHeader(header('Subject')),
    messageId: header('Message-ID'),
    listUnsubscribe: header('List-Unsubscribe'),
    text: decodeQuotedPrintable(text),
  };
}

/**
 * A real SMTP server (the `smtp-server` package) on loopback that keeps what it receives, for
 * tests of the mail Tabhive sends (SMTP_URL=`url`). No TLS or AUTH: nodemailer then sends plainly.
 * `refuseNext(n)` answers the next n messages with a temporary failure (451), as a busy server may.
 */
export async function startLoopbackSmtp() {
  const mails: ReceivedMail[] = [];
  let refusals = 0;
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          refused += 1;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        mails.push(readMail(Buffer.concat(chunks).toString('utf8')));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address: string) => mails.filter((mail) => mail.to.includes(address)),
    refuseNext(count: number) {
      refusals = count;
    },
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text to `path` (a Tabhive confirm or unsubscribe link). */
export function linkIn(mail: ReceivedMail, path: string): string | undefined {
  return new RegExp(`https?://\\S+${path.replace(/\//g, '\\/')}\\?token=[\\w-]+`).exec(mail.text)?.[0];
}
