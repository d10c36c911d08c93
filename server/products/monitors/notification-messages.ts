import type { MailMessage } from '../../platform/notify';
import type { MonitorSummaryCounts, StoredMonitorPage } from '../../platform/store';

/**
 * What monitor notifications say: the opt-in e-mail, the e-mail about a check's changes, and the
 * Slack-compatible message (`{ text, blocks }`, Slack's Block Kit, which Mattermost and Rocket.Chat
 * incoming webhooks take too). Page text in them is the monitor's own data: escaped for HTML and
 * for Slack's mrkdwn, never trusted as markup.
 */

/** Pages listed in one notification; the rest are counted. */
const MAX_LISTED_PAGES = 25;
/** Diff text per page in an e-mail with `includeDiffs`. */
const MAX_DIFF_CHARS = 4_000;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
/** Slack's mrkdwn reserves only these three. */
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function confirmationMail({
  to,
  monitorName,
  confirmUrl,
  unsubscribeUrl,
}: {
  to: string;
  monitorName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const text = [
    `You were added as a recipient of the change notifications of the Tabhive monitor "${monitorName}".`,
    '',
    `Confirm that you want them: ${confirmUrl}`,
    '',
    'Nothing is sent to you until you confirm. If you did not expect this, ignore this e-mail,',
    `or stop it for good: ${unsubscribeUrl}`,
  ].join('\n');
  const html =
    `<p>You were added as a recipient of the change notifications of the Tabhive monitor <b>${escapeHtml(monitorName)}</b>.</p>` +
    `<p><a href="${escapeHtml(confirmUrl)}">Confirm that you want them</a></p>` +
    '<p>Nothing is sent to you until you confirm. If you did not expect this, ignore this e-mail, ' +
    `or <a href="${escapeHtml(unsubscribeUrl)}">stop it for good</a>.</p>`;
  return {
    to,
    subject: `Confirm notifications from the monitor "${monitorName}"`,
    text,
    html,
    unsubscribeUrl,
  };
}

/** "2 changed, 1 new, 1 removed": the summary's counts that are not zero, errors included. */
export function changeHeadline(summary: MonitorSummaryCounts): string {
  const parts = (['changed', 'new', 'removed', 'error'] as const)
    .filter((status) => summary[status] > 0)
    .map(
      (status) =>
        `${summary[status]} ${status === 'error' ? (summary.error === 1 ? 'error' : 'errors') : status}`,
    );
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}

/** Whether a check has anything to tell: a page changed, appeared, went, or failed. */
export const hasNews = (summary: MonitorSummaryCounts) =>
  summary.changed + summary.new + summary.removed + summary.error > 0;

const listed = (pages: readonly StoredMonitorPage[]) => pages.filter((page) => page.status !== 'same');

export function changesMail({
  to,
  monitorName,
  summary,
  pages,
  includeDiffs,
  checkUrl,
  unsubscribeUrl,
}: {
  to: string;
  monitorName: string;
  summary: MonitorSummaryCounts;
  pages: readonly StoredMonitorPage[];
  includeDiffs: boolean;
  checkUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const news = listed(pages);
  const shown = news.slice(0, MAX_LISTED_PAGES);
  const more = news.length - shown.length;
  const diffOf = (page: StoredMonitorPage) =>
    includeDiffs && typeof page.diff?.text === 'string' && page.diff.text !== ''
      ? page.diff.text.slice(0, MAX_DIFF_CHARS)
      : undefined;
  const text = [
    `The monitor "${monitorName}" checked ${summary.totalPages} page(s): ${changeHeadline(summary)}.`,
    '',
    ...shown.flatMap((page) => {
      const diff = diffOf(page);
      return [
        `- ${page.status}: ${page.url}${page.error === undefined ? '' : ` (${page.error})`}`,
        ...(diff === undefined ? [] : [diff, '']),
      ];
    }),
    ...(more > 0 ? [`… and ${more} more page(s).`] : []),
    '',
    `The whole check (with your API key): ${checkUrl}`,
    `Stop these e-mails: ${unsubscribeUrl}`,
  ].join('\n');
  const html =
    `<p>The monitor <b>${escapeHtml(monitorName)}</b> checked ${summary.totalPages} page(s): ${escapeHtml(changeHeadline(summary))}.</p><ul>` +
    shown
      .map((page) => {
        const diff = diffOf(page);
        return (
          `<li><b>${page.status}</b>: <a href="${escapeHtml(page.url)}">${escapeHtml(page.url)}</a>` +
          (page.error === undefined ? '' : ` (${escapeHtml(page.error)})`) +
          (diff === undefined ? '' : `<pre>${escapeHtml(diff)}</pre>`) +
          '</li>'
        );
      })
      .join('') +
    `</ul>${more > 0 ? `<p>… and ${more} more page(s).</p>` : ''}` +
    `<p><a href="${escapeHtml(unsubscribeUrl)}">Stop these e-mails</a></p>`;
  return {
    to,
    subject: `Monitor "${monitorName}": ${changeHeadline(summary)}`,
    text,
    html,
    unsubscribeUrl,
  };
}

/** A Slack-compatible incoming-webhook message: `text` for notifications, `blocks` for the channel. */
export function slackMessage({
  monitorName,
  summary,
  pages,
  checkUrl,
}: {
  monitorName: string;
  summary: MonitorSummaryCounts;
  pages: readonly StoredMonitorPage[];
  checkUrl: string;
}) {
  const news = listed(pages);
  const shown = news.slice(0, 10);
  const more = news.length - shown.length;
  const text = `Monitor "${monitorName}": ${changeHeadline(summary)} (${summary.totalPages} page(s) checked)`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeSlack(text)}*` } },
      ...(shown.length === 0
        ? []
        : [
            {
              type: 'section',
              text: {
                type: 'mrkdwn',
                text:
                  shown
                    .map((page) => `• ${page.status}: <${escapeSlack(page.url)}|${escapeSlack(page.url)}>`)
                    .join('\n') + (more > 0 ? `\n… and ${more} more` : ''),
              },
            },
          ]),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Check: ${escapeSlack(checkUrl)}` }] },
    ],
  };
}
