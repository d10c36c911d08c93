import { afterEach, describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startHubOnLoopback, type HubOnLoopback } from '../../helpers/hub-on-loopback';

const capture: PageCapture = { url: 'about:blank', statusCode: 200, rawHtml: '', renderedHtml: '' };
const page = { url: 'http://site.test/', waitForMs: 0 };

let running: HubOnLoopback | undefined;
afterEach(() => running?.close());

/**
 * A session's own browser is known to the hub by the launch token the server gave it
 * (create-session-browsers.ts), never by its hello: it takes its session's task and nothing else,
 * even when it says it is a pool browser, and offers the pool no tabs.
 */
describe('a browser launched for one session, on the hub', () => {
  it('takes only its session’s task, whatever its hello says, and counts for nothing in the pool', async () => {
    const sessionTokens: string[] = [];
    running = await startHubOnLoopback({
      noBrowserGraceMs: 300,
      reservations: {
        reservedFor: (browserId) =>
          sessionTokens.some((token) => running?.tokens.browserIdOf(token) === browserId)
            ? 'session-1'
            : undefined,
      },
    });
    const { hub, tokens, hubUrl } = running;
    const token = tokens.issueLaunchToken();
    sessionTokens.push(token);
    const own = await connectFakeBrowser(hubUrl);
    own.hello(token, { browserClass: 'basic' });
    expect((await own.next('welcome')).maxConcurrentTasks).toBe(1);
    expect([hub.connectedBrowsers(), hub.connectedBrowsers('basic'), hub.poolTabs('basic')]).toEqual([
      1, 0, 0,
    ]);
    expect(hub.hasPoolBrowser('basic')).toBe(false);

    // A plain task finds no pool browser, though this one is connected and idle.
    await expect(hub.runTask(page, { timeoutMs: 5_000, teamId: 'A' })).rejects.toMatchObject({
      code: 'NO_BROWSER',
    });
    const session = hub.runTask(
      { url: 'about:blank', waitForMs: 0, session: {} },
      { timeoutMs: 5_000, teamId: 'A', taskId: 'session-1', ownBrowser: true },
    );
    const task = await own.next('task');
    expect(task.taskId).toBe('session-1');
    own.send({ type: 'result', taskId: 'session-1', ok: true, capture });
    await expect(session).resolves.toEqual(capture);
    own.close();
  });
});
