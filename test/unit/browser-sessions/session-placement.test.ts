import { describe, expect, it } from 'vitest';
import {
  createSessionLeases,
  type SessionHub,
} from '../../../server/products/browser-sessions/create-session-leases';
import type { RunOptions } from '../../../server/browsers/hub/task-scheduler';
import type {
  SessionBrowserLaunch,
  SessionBrowsers,
} from '../../../server/browsers/launcher/create-session-browsers';
import { createLog } from '../../../server/platform/log/log';
import type { BrowserSessionStore } from '../../../server/platform/store/stores/browser-session-store';
import type { UrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import type { SessionReplyMessage, SessionEventMessage } from '../../../shared/protocol/messages';

/**
 * Where a session runs (docs/browser-sessions.md): a browser of its own when the server launches
 * session browsers, a donated browser for an interaction on its fence, and never a shared pool
 * browser under its team's state key.
 */

/** A hub whose browser starts every task at once and answers a session's commands. */
function fakeHub({ donatedCovers = false }: { donatedCovers?: boolean } = {}) {
  const runs: RunOptions[] = [];
  const listeners = new Set<(message: SessionReplyMessage | SessionEventMessage) => void>();
  const ends = new Map<string, () => void>();
  const hub: SessionHub = {
    runTask(_spec, options) {
      runs.push(options);
      queueMicrotask(() => options.onStarted?.());
      return new Promise((resolve) =>
        ends.set(options.taskId as string, () =>
          resolve({ url: 'about:blank', statusCode: 200, rawHtml: '', renderedHtml: '' }),
        ),
      );
    },
    sendSession(message) {
      if (message.type === 'session-end') ends.get(message.taskId)?.();
      else {
        const reply: SessionReplyMessage = {
          type: 'session-reply',
          taskId: message.taskId,
          commandId: message.commandId,
          ok: true,
          result: { url: 'about:blank', title: '', html: '' },
        };
        queueMicrotask(() => listeners.forEach((listener) => listener(reply)));
      }
      return true;
    },
    onSessionMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    taskBrowser: () => ({ browserId: 'browser', donated: false, browserClass: 'basic' }),
    cancelTask: () => true,
    donatedCovers: () => donatedCovers,
  };
  return { hub, runs };
}

function fakeSessionBrowsers(refusal?: Extract<SessionBrowserLaunch, { ok: false }>) {
  const launched: string[] = [];
  const closed: string[] = [];
  const browsers: SessionBrowsers = {
    launch({ taskId }) {
      if (refusal !== undefined) return refusal;
      launched.push(taskId);
      return {
        ok: true,
        browser: { close: async () => void closed.push(taskId), pid: () => undefined },
      };
    },
    reservedFor: () => undefined,
    count: () => launched.length - closed.length,
    stop: async () => undefined,
    killNow: () => undefined,
  };
  return { browsers, launched, closed };
}

const store = {
  put: async () => undefined,
  finish: async () => undefined,
  touch: async () => undefined,
} as unknown as BrowserSessionStore;
const urlPolicy = {
  check: async () => ({ allowed: true }),
  networkPolicy: undefined,
} as unknown as UrlPolicy;

function leases(hub: SessionHub, sessionBrowsers: SessionBrowsers | undefined) {
  return createSessionLeases({
    hub,
    sessions: store,
    creditLedger: undefined,
    teams: undefined,
    browserProfiles: undefined,
    urlPolicy,
    sessionBrowsers,
    log: createLog({ quiet: true }),
  });
}

const start = (url = 'about:blank') => ({
  teamId: 'A',
  apiKey: undefined,
  kind: 'browser' as const,
  url,
  ttlMs: 60_000,
  activityTtlMs: undefined,
  streamWebView: false,
  profile: undefined,
  options: {},
  publicBase: 'http://127.0.0.1:3002',
});

describe('where a browser session runs', () => {
  it('in a browser launched for it alone, closed when the session ends', async () => {
    const { hub, runs } = fakeHub();
    const launcher = fakeSessionBrowsers();
    const sessions = leases(hub, launcher.browsers);
    const session = await sessions.open(start());
    const id = session.control.session.id;
    expect(launcher.launched).toEqual([id]);
    expect(runs[0]).toMatchObject({ ownBrowser: true, taskId: id, teamId: 'A' });
    expect(runs[0]?.isolated).toBeUndefined();
    await sessions.end(id, 'deleted');
    expect(launcher.closed).toEqual([id]);
  });

  it('answers 429 or 503 when the team holds its share of the session browsers, or all are in use', async () => {
    const { hub, runs } = fakeHub();
    await expect(
      leases(hub, fakeSessionBrowsers({ ok: false, reason: 'team', limit: 1 }).browsers).open(start()),
    ).rejects.toMatchObject({ kind: 'rate-limited', code: 'BROWSER_SESSION_LIMIT' });
    await expect(
      leases(hub, fakeSessionBrowsers({ ok: false, reason: 'full', limit: 2 }).browsers).open(start()),
    ).rejects.toMatchObject({ kind: 'unavailable', code: 'SESSION_BROWSERS_BUSY' });
    // Refused before any task was queued: nothing waits for a pool browser.
    expect(runs).toEqual([]);
  });

  it('on the team’s donated browser when it covers the interaction’s page, as the scrape ran', async () => {
    const { hub, runs } = fakeHub({ donatedCovers: true });
    const launcher = fakeSessionBrowsers();
    const sessions = leases(hub, launcher.browsers);
    const session = await sessions.open(start('http://members.test/account'));
    expect(launcher.launched).toEqual([]);
    expect(runs[0]?.ownBrowser).toBeUndefined();
    expect(runs[0]?.isolated).toBeUndefined();
    await sessions.end(session.control.session.id, 'deleted');
  });

  it('alone on a pool browser in wiped state when the server launches no session browsers', async () => {
    const { hub, runs } = fakeHub();
    const sessions = leases(hub, undefined);
    const session = await sessions.open(start());
    expect(runs[0]).toMatchObject({ isolated: true });
    await sessions.end(session.control.session.id, 'deleted');
  });
});
