import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail, linkIn, startLoopbackSmtp } from '../../helpers/loopback-smtp';
import { TEST_API_KEY, startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';
import { type MonitorSite, startMonitorSite } from './monitor-site';

/**
 * Monitor notifications that are sent: e-mail with double opt-in and unsubscribe, received by a
 * loopback SMTP server, and a Slack-compatible incoming webhook received on loopback; both through
 * the durable outbox, each retried after a first failure and received exactly once.
 */

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let site: MonitorSite;
let smtp: Awaited<ReturnType<typeof startLoopbackSmtp>>;
let slack: ReturnType<typeof createServer>;
let slackUrl: string;
const slackMessages: Array<{ text: string; blocks: unknown[] }> = [];
let slackAttempts = 0;

const mailsTo = (address: string) => smtp.to(address);
const link = (mail: ReceivedMail, path: string) => {
  const found = linkIn(mail, path);
  expect(found, mail.text).toBeDefined();
  return found!;
};

beforeAll(async () => {
  site = await startMonitorSite({ '/price': { title: 'Price', body: 'The widget costs 10 euros.' } });
  smtp = await startLoopbackSmtp();
  slack = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      slackAttempts += 1;
      // The first message is refused once: the outbox must retry it, and deliver it once.
      if (slackAttempts === 1) {
        response.writeHead(503).end();
        return;
      }
      slackMessages.push(
        JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof slackMessages)[number],
      );
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
  slackUrl = `http://127.0.0.1:${(slack.address() as AddressInfo).port}/services/T000/B000/XXXX`;
  tabhive = await startTestTabhive({
    browsers: 0,
    webhookRetryDelaysMs: [300, 300, 300],
    env: {
      MONITOR_MIN_INTERVAL_SECONDS: '1',
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Tabhive monitors <monitors@tabhive.test>',
    },
  });
}, 60_000);

afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await smtp?.close();
  await new Promise<void>((resolve) => slack?.close(() => resolve()));
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function runToEnd(id: string): Promise<{ id: string; summary: Record<string, number> }> {
  const run = await call('POST', `/v2/monitor/${id}/run`, {});
  expect(run.status, JSON.stringify(run.json)).toBe(200);
  const checkId = run.json.data.id as string;
  let status = 'running';
  let check: { id: string; summary: Record<string, number> } | undefined;
  await waitUntil(
    async () => {
      const detail = await call('GET', `/v2/monitor/${id}/checks/${checkId}`);
      status = detail.json.data?.status as string;
      check = detail.json.data;
      return status !== 'running';
    },
    30_000,
    'the check to finish',
  );
  return check!;
}

describe('monitor e-mail and Slack notifications', () => {
  it('asks each recipient to opt in, mails only those who did, retries without duplicates, and stops on unsubscribe', async () => {
    const created = await call('POST', '/v2/monitor', {
      name: 'Widget price',
      schedule: { text: 'hourly', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [site.url('/price')] }],
      notification: {
        email: { enabled: true, recipients: ['Ana@Example.org', 'bob@example.org'], includeDiffs: true },
        slack: { webhookUrl: slackUrl },
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const monitor = created.json.data;
    expect(monitor.emailRecipientSubscriptions).toEqual([
      { email: 'ana@example.org', status: 'pending', source: 'opt_in', confirmationEmailSent: true },
      { email: 'bob@example.org', status: 'pending', source: 'opt_in', confirmationEmailSent: true },
    ]);
    expect(created.json.warning).toMatch(/once they confirm/);

    // Double opt-in: one confirmation mail each, with a confirm and an unsubscribe link.
    await waitUntil(() => smtp.mails.length >= 2, 15_000, 'the two confirmation mails');
    const [optIn] = mailsTo('ana@example.org');
    expect(optIn!.subject).toBe('Confirm notifications from the monitor "Widget price"');
    const confirm = link(optIn!, '/v2/notifications/email/confirm');
    expect(confirm.startsWith(tabhive.url)).toBe(true);
    // Opening the link (as a mail scanner would) changes nothing; its button's POST confirms.
    const opened = await fetch(confirm);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('<form method="post"');
    expect(
      (await call('GET', `/v2/monitor/${monitor.id}`)).json.data.emailRecipientSubscriptions[0].status,
    ).toBe('pending');
    const confirmed = await fetch(confirm, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('ana@example.org will receive');
    expect(
      (await call('GET', `/v2/monitor/${monitor.id}`)).json.data.emailRecipientSubscriptions.map(
        (subscription: { status: string }) => subscription.status,
      ),
    ).toEqual(['confirmed', 'pending']);
    expect(
      (await fetch(`${tabhive.url}/v2/notifications/email/confirm?token=forged`, { method: 'POST' })).status,
    ).toBe(404);

    // The first check finds the page new: Ana (confirmed) gets one mail, though the SMTP server
    // refused its first attempt; Bob (pending) gets none; Slack gets one message though it refused
    // the first POST.
    smtp.refuseNext(1);
    const first = await runToEnd(monitor.id);
    expect(first.summary).toMatchObject({ new: 1 });
    await waitUntil(
      () => mailsTo('ana@example.org').length === 2 && slackMessages.length === 1,
      15_000,
      'the first notifications',
    );
    expect(smtp.refused()).toBe(1);
    expect(slackAttempts).toBe(2);
    const [, news] = mailsTo('ana@example.org');
    expect(news!.subject).toBe('Monitor "Widget price": 1 new');
    expect(news!.text).toContain(`- new: ${site.url('/price')}`);
    expect(news!.listUnsubscribe).toMatch(/\/v2\/notifications\/email\/unsubscribe\?token=/);
    expect(slackMessages[0]).toMatchObject({
      text: 'Monitor "Widget price": 1 new (1 page(s) checked)',
      blocks: expect.arrayContaining([expect.objectContaining({ type: 'section' })]),
    });
    expect(mailsTo('bob@example.org')).toHaveLength(1);

    // A change: Ana's mail carries the diff (includeDiffs).
    site.set('/price', { title: 'Price', body: 'The widget costs 12 euros.' });
    const second = await runToEnd(monitor.id);
    expect(second.summary).toMatchObject({ changed: 1 });
    await waitUntil(
      () => mailsTo('ana@example.org').length === 3 && slackMessages.length === 2,
      15_000,
      'the change notifications',
    );
    const changed = mailsTo('ana@example.org')[2]!;
    expect(changed.subject).toBe('Monitor "Widget price": 1 changed');
    expect(changed.text).toContain('+The widget costs 12 euros.');

    // One-click unsubscribe (RFC 8058), as a mail client sends it: no more mail, Slack goes on.
    const unsubscribe = link(changed, '/v2/notifications/email/unsubscribe');
    const done = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(
      (await call('GET', `/v2/monitor/${monitor.id}`)).json.data.emailRecipientSubscriptions[0],
    ).toMatchObject({ email: 'ana@example.org', status: 'unsubscribed' });
    // A confirm link followed later does not subscribe an address that opted out.
    await fetch(confirm, { method: 'POST' });
    site.set('/price', { title: 'Price', body: 'The widget costs 15 euros.' });
    await runToEnd(monitor.id);
    await waitUntil(() => slackMessages.length === 3, 15_000, 'the third Slack message');
    expect(mailsTo('ana@example.org')).toHaveLength(3);

    // Every message once: no Message-ID twice, no Slack message twice.
    const ids = smtp.mails.map((mail) => mail.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(slackAttempts).toBe(4);
  }, 90_000);
});
