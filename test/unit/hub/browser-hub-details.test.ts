import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listBrowsers } from '../../../server/api/console/console-instance';
import type { BrowserTokens } from '../../../server/browsers/launch-tokens/browser-tokens';
import type { BrowserHub } from '../../../server/browsers/hub/create-browser-hub';
import type { NodeTokenDirectory } from '../../../server/browsers/hub/node-token-directory';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startHubOnLoopback, type HubOnLoopback } from '../../helpers/hub-on-loopback';

/** Team A's node token; the directory the store would back, in memory. */
const TEAM_NODE_TOKEN = 'tbn_team-a-node-token-for-details';
const nodeTokens: NodeTokenDirectory = {
  find: async (token) =>
    token === TEAM_NODE_TOKEN ? { tokenId: 'node_a', teamId: 'team-a', revoked: false } : undefined,
  revokedAmong: async () => [],
  seen: async () => {},
};

let running: HubOnLoopback;
let hub: BrowserHub;
let tokens: BrowserTokens;
let hubUrl: string;

beforeEach(async () => {
  running = await startHubOnLoopback({ nodeTokens });
  ({ hub, tokens, hubUrl } = running);
});
afterEach(() => running.close());

describe("the hub's browser details", () => {
  it('keeps the hello, the running tasks without query or credentials, and the last failures', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken(), { extensionVersion: '1.4.2', userAgent: 'Chromium/140 test' });
    const { browserId } = await browser.next('welcome');

    const running = hub.runTask(
      { url: 'https://user:pw@site.test/private?token=abc#x', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-b' },
    );
    const task = await browser.next('task');
    const [details] = hub.browserDetails();
    expect(details).toMatchObject({
      browserId,
      extensionVersion: '1.4.2',
      userAgent: 'Chromium/140 test',
      runningTasks: [{ taskId: task.taskId, url: 'https://site.test/private', teamId: 'team-b' }],
      recentFailures: [],
    });
    expect(Date.parse(details?.runningTasks[0]?.startedAt ?? '')).not.toBeNaN();
    expect(JSON.stringify(hub.browserDetails())).not.toContain('abc');
    expect(JSON.stringify(hub.browserDetails())).not.toContain('pw');

    browser.send({
      type: 'result',
      taskId: task.taskId,
      ok: false,
      error: { code: 'SCRAPE_SITE_ERROR', message: 'net::ERR_CONNECTION_REFUSED' },
    });
    await expect(running).rejects.toThrow('net::ERR_CONNECTION_REFUSED');
    expect(hub.browserDetails()[0]).toMatchObject({
      runningTasks: [],
      recentFailures: [
        {
          taskId: task.taskId,
          url: 'https://site.test/private',
          teamId: 'team-b',
          code: 'SCRAPE_SITE_ERROR',
          message: 'net::ERR_CONNECTION_REFUSED',
        },
      ],
    });
    // A result for a task the browser does not hold is no failure of its own.
    browser.send({
      type: 'result',
      taskId: 'made-up',
      ok: false,
      error: { code: 'BROWSER_ERROR', message: 'x' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.browserDetails()[0]?.recentFailures).toHaveLength(1);
    browser.close();
  });

  it("shows a team key its own node's tasks and only counts for the shared pool", async () => {
    const pool = await connectFakeBrowser(hubUrl);
    pool.hello(tokens.issueLaunchToken());
    const { browserId: poolId } = await pool.next('welcome');
    const node = await connectFakeBrowser(hubUrl);
    node.hello(TEAM_NODE_TOKEN);
    const { browserId: nodeId } = await node.next('welcome');

    // Team B's task can only go to the shared pool; team A's prefers its own node.
    const poolTask = hub.runTask(
      { url: 'http://pool.test/team-b-secret-page', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-b' },
    );
    const poolSent = await pool.next('task');
    const nodeTask = hub.runTask(
      { url: 'http://node.test/team-a-page', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-a' },
    );
    const nodeSent = await node.next('task');
    pool.send({
      type: 'result',
      taskId: poolSent.taskId,
      ok: false,
      error: { code: 'BROWSER_ERROR', message: 'failed on the pool' },
    });
    await expect(poolTask).rejects.toThrow('failed on the pool');
    const again = hub.runTask(
      { url: 'http://pool.test/team-b-second', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-b' },
    );
    const againSent = await pool.next('task');

    const forTeam = listBrowsers(hub, { teamId: 'team-a' });
    const poolRow = forTeam.find((browser) => browser.id === poolId);
    const nodeRow = forTeam.find((browser) => browser.id === nodeId);
    expect(poolRow).toMatchObject({
      teamId: null,
      extensionVersion: 'test',
      tabsInUse: 1,
      runningTasks: null,
      recentFailures: null,
      recentFailureCount: 1,
    });
    expect(nodeRow).toMatchObject({
      kind: 'node',
      teamId: 'team-a',
      runningTasks: [{ taskId: nodeSent.taskId, url: 'http://node.test/team-a-page' }],
      recentFailures: [],
    });
    expect(JSON.stringify(forTeam)).not.toContain('pool.test');

    const forAdmin = listBrowsers(hub);
    expect(forAdmin.find((browser) => browser.id === poolId)).toMatchObject({
      runningTasks: [{ taskId: againSent.taskId, url: 'http://pool.test/team-b-second' }],
      recentFailures: [{ url: 'http://pool.test/team-b-secret-page', code: 'BROWSER_ERROR' }],
    });

    const capture = { url: 'http://x.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
    pool.send({ type: 'result', taskId: againSent.taskId, ok: true, capture });
    node.send({ type: 'result', taskId: nodeSent.taskId, ok: true, capture });
    await Promise.all([again, nodeTask]);
    pool.close();
    node.close();
  });
});
