import { describe, expect, it } from 'vitest';
import type { DonationTerms, SessionEvent } from '../../../shared/protocol/messages';
import type { CdpEventListener, CdpSession } from '../../../extension/debugger/cdp-session';
import { createLiveCommandRunner } from '../../../extension/sessions/live-command-runner';
import { PageTaskError } from '../../../extension/task-kit/page-task-error';

const OPEN_TERMS: DonationTerms = {
  enabled: true,
  allowedDomains: ['shop.example'],
  maxTabs: 2,
  allowJavascript: true,
};

/** A tab that records what it was sent and lets the test fire its events. */
function fakeTab({
  donated = false,
  terms = OPEN_TERMS,
  violation,
  history = [],
}: {
  donated?: boolean;
  terms?: DonationTerms;
  violation?: () => PageTaskError | undefined;
  history?: Array<{ id: number; url: string }>;
} = {}) {
  const sent: Array<{ method: string; params: Record<string, unknown> | undefined }> = [];
  const listeners = new Set<CdpEventListener>();
  const emitted: SessionEvent[] = [];
  const cdp: CdpSession = {
    send: () => Promise.reject(new Error('the live commands send directly')),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    detached: new Promise(() => {}),
    detach: async () => {},
  };
  const runner = createLiveCommandRunner({
    tabId: 7,
    cdp,
    emit: (event) => emitted.push(event),
    donated,
    guard: { violation: violation ?? (() => undefined) },
    networkPolicy: { allowPrivateNetworks: false, allowedPrivateHosts: [] },
    direct: async (method, params) => {
      sent.push({ method, params });
      if (method === 'DOM.describeNode') throw new Error('No node with given id found');
      if (method === 'Page.getNavigationHistory') return { currentIndex: 0, entries: history };
      return method === 'Runtime.evaluate' ? { result: { type: 'number', value: 2 } } : {};
    },
    donorTerms: async () => terms,
  });
  const fire = (method: string, params: Record<string, unknown>) => {
    for (const listener of listeners) listener(method, params);
  };
  const frame = (sessionId: number) =>
    fire('Page.screencastFrame', {
      data: `jpeg-${sessionId}`,
      sessionId,
      metadata: { deviceWidth: 1280, deviceHeight: 800, pageScaleFactor: 1, offsetTop: 0, scrollOffsetX: 0 },
    });
  const methods = () => sent.map((entry) => entry.method);
  return { runner, sent, methods, emitted, fire, frame, listeners };
}

const screencast = { kind: 'screencast', enabled: true, quality: 50, maxWidth: 800, maxHeight: 600 } as const;

describe('the live commands', () => {
  it('starts a JPEG screencast and sends one frame at a time', async () => {
    const tab = fakeTab();
    await tab.runner.run(screencast);
    expect(tab.sent[0]).toEqual({
      method: 'Page.startScreencast',
      params: { format: 'jpeg', quality: 50, maxWidth: 800, maxHeight: 600, everyNthFrame: 1 },
    });
    tab.frame(1);
    tab.frame(2);
    tab.frame(3);
    // Frame 1 travels; 3 waits; 2 was overtaken and given back to Chromium at once.
    expect(tab.emitted).toEqual([
      {
        kind: 'frame',
        data: 'jpeg-1',
        frameSessionId: 1,
        deviceWidth: 1280,
        deviceHeight: 800,
        pageScaleFactor: 1,
        offsetTop: 0,
      },
    ]);
    await Promise.resolve();
    expect(tab.sent.filter((entry) => entry.method === 'Page.screencastFrameAck')).toEqual([
      { method: 'Page.screencastFrameAck', params: { sessionId: 2 } },
    ]);
    await tab.runner.run({ kind: 'frame-ack', frameSessionId: 1 });
    expect(tab.emitted.map((event) => (event.kind === 'frame' ? event.frameSessionId : -1))).toEqual([1, 3]);
    await tab.runner.run({ kind: 'frame-ack', frameSessionId: 3 });
    tab.frame(4);
    expect(tab.emitted).toHaveLength(3);
    await tab.runner.run({ kind: 'screencast', enabled: false, quality: 60, maxWidth: 1280, maxHeight: 800 });
    expect(tab.methods().at(-1)).toBe('Page.stopScreencast');
    tab.frame(5);
    expect(tab.emitted).toHaveLength(3);
  });

  it('dispatches mouse, key and text input as trusted CDP input', async () => {
    const tab = fakeTab();
    await tab.runner.run({
      kind: 'input',
      input: { kind: 'mouse', type: 'mousePressed', x: 10, y: 20, button: 'left', clickCount: 1 },
    });
    await tab.runner.run({
      kind: 'input',
      input: { kind: 'mouse', type: 'mouseWheel', x: 1, y: 2, button: 'none', clickCount: 0, deltaY: 120 },
    });
    await tab.runner.run({
      kind: 'input',
      input: {
        kind: 'key',
        type: 'keyDown',
        key: 'Enter',
        code: 'Enter',
        text: '\r',
        windowsVirtualKeyCode: 13,
      },
    });
    await tab.runner.run({ kind: 'input', input: { kind: 'text', text: 'héllo' } });
    expect(tab.sent).toEqual([
      {
        method: 'Input.dispatchMouseEvent',
        params: { type: 'mousePressed', x: 10, y: 20, button: 'left', clickCount: 1, modifiers: 0 },
      },
      {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: 'mouseWheel',
          x: 1,
          y: 2,
          button: 'none',
          clickCount: 0,
          modifiers: 0,
          deltaX: 0,
          deltaY: 120,
        },
      },
      {
        method: 'Input.dispatchKeyEvent',
        params: {
          type: 'keyDown',
          modifiers: 0,
          key: 'Enter',
          code: 'Enter',
          text: '\r',
          unmodifiedText: '\r',
          windowsVirtualKeyCode: 13,
          nativeVirtualKeyCode: 13,
        },
      },
      { method: 'Input.insertText', params: { text: 'héllo' } },
    ]);
  });

  it('relays allowed CDP, refuses the rest, and passes CDP errors on', async () => {
    const tab = fakeTab();
    expect(
      await tab.runner.run({ kind: 'cdp', method: 'Runtime.evaluate', params: { expression: '1+1' } }),
    ).toEqual({
      result: { type: 'number', value: 2 },
    });
    const refused = tab.runner.run({ kind: 'cdp', method: 'Storage.getCookies' });
    await expect(refused).rejects.toBeInstanceOf(PageTaskError);
    await expect(refused).rejects.toMatchObject({ code: 'TASK_REFUSED' });
    await expect(
      tab.runner.run({ kind: 'cdp', method: 'DOM.describeNode', params: { nodeId: 9 } }),
    ).rejects.toMatchObject({
      code: 'BROWSER_ERROR',
      message: 'No node with given id found',
    });
    expect(tab.methods()).toEqual(['Runtime.evaluate', 'DOM.describeNode']);
  });

  it('reports execution contexts anew to every Runtime.enable', async () => {
    const tab = fakeTab();
    await tab.runner.run({ kind: 'cdp', method: 'Runtime.enable' });
    expect(tab.methods()).toEqual(['Runtime.disable', 'Runtime.enable']);
  });

  it("holds a donated browser's relay to its owner's terms", async () => {
    const noScripts = fakeTab({ donated: true, terms: { ...OPEN_TERMS, allowJavascript: false } });
    await expect(noScripts.runner.run({ kind: 'cdp', method: 'DOM.getDocument' })).rejects.toMatchObject({
      code: 'TASK_REFUSED',
    });
    const open = fakeTab({ donated: true });
    await expect(
      open.runner.run({
        kind: 'cdp',
        method: 'Page.navigate',
        params: { url: 'https://elsewhere.example/' },
      }),
    ).rejects.toMatchObject({ code: 'TASK_REFUSED' });
    await open.runner.run({
      kind: 'cdp',
      method: 'Page.navigate',
      params: { url: 'https://shop.example/cart' },
    });
    await expect(open.runner.run({ kind: 'cdp', method: 'Network.getCookies' })).rejects.toMatchObject({
      code: 'TASK_REFUSED',
    });
    expect(open.methods()).toEqual(['Page.navigate']);
  });

  it("forwards the tab's CDP events while asked, without screencast frames", async () => {
    const tab = fakeTab();
    tab.fire('Page.loadEventFired', { timestamp: 1 });
    await tab.runner.run({ kind: 'cdp-events', enabled: true });
    await tab.runner.run({ kind: 'cdp-events', enabled: true });
    tab.fire('Page.loadEventFired', { timestamp: 2 });
    tab.frame(1);
    await tab.runner.run({ kind: 'cdp-events', enabled: false });
    tab.fire('Page.loadEventFired', { timestamp: 3 });
    expect(tab.emitted).toEqual([{ kind: 'cdp', method: 'Page.loadEventFired', params: { timestamp: 2 } }]);
  });

  it('stops the screencast and the forwarding at the end', async () => {
    const tab = fakeTab();
    await tab.runner.run(screencast);
    await tab.runner.run({ kind: 'cdp-events', enabled: true });
    await tab.runner.stop();
    expect(tab.methods()).toEqual(['Page.startScreencast', 'Page.stopScreencast']);
    expect(tab.listeners.size).toBe(0);
  });

  it('refuses every command and forwards no event once the address guard has tripped', async () => {
    const guard: { tripped?: PageTaskError } = {};
    const tab = fakeTab({ violation: () => guard.tripped });
    await tab.runner.run({ kind: 'cdp-events', enabled: true });
    await tab.runner.run({ kind: 'cdp', method: 'Runtime.evaluate', params: { expression: '1' } });
    guard.tripped = new PageTaskError('URL_BLOCKED', 'rebind.test connected to 127.0.0.1');
    tab.fire('Runtime.consoleAPICalled', { type: 'log', args: [{ value: 'the private page' }] });
    for (const command of [
      { kind: 'cdp', method: 'Runtime.evaluate', params: { expression: 'document.body.innerText' } },
      { kind: 'cdp', method: 'Page.disable' },
      { kind: 'input', input: { kind: 'text', text: 'x' } },
      screencast,
    ] as const) {
      await expect(tab.runner.run(command)).rejects.toMatchObject({ code: 'URL_BLOCKED' });
    }
    expect(tab.methods()).toEqual(['Runtime.evaluate']);
    expect(tab.emitted).toEqual([]);
  });

  it('checks navigations by host and history entries by their address before they are sent', async () => {
    const tab = fakeTab({
      history: [
        { id: 1, url: 'https://a.example/' },
        { id: 2, url: 'http://127.0.0.1:3101/secret' },
        { id: 3, url: 'chrome-error://chromewebdata/' },
      ],
    });
    await expect(
      tab.runner.run({ kind: 'cdp', method: 'Page.navigate', params: { url: 'http://169.254.169.254/' } }),
    ).rejects.toMatchObject({ code: 'URL_BLOCKED' });
    for (const entryId of [2, 3]) {
      await expect(
        tab.runner.run({ kind: 'cdp', method: 'Page.navigateToHistoryEntry', params: { entryId } }),
      ).rejects.toMatchObject({ code: 'URL_BLOCKED' });
    }
    await tab.runner.run({ kind: 'cdp', method: 'Page.navigateToHistoryEntry', params: { entryId: 1 } });
    expect(tab.methods().filter((method) => method !== 'Page.getNavigationHistory')).toEqual([
      'Page.navigateToHistoryEntry',
    ]);
  });

  it("keeps the extension's world out of reach and out of sight", async () => {
    const tab = fakeTab();
    await tab.runner.run({ kind: 'cdp-events', enabled: true });
    const created = (id: number, origin: string, isDefault: boolean, name = '') =>
      tab.fire('Runtime.executionContextCreated', {
        context: {
          id,
          origin,
          name,
          uniqueId: `u${id}`,
          auxData: { isDefault, type: isDefault ? 'default' : 'isolated' },
        },
      });
    created(1, '://', true);
    created(2, 'chrome-extension://bldifabcdefghijklmnop', false, 'Tabhive');
    expect(
      tab.emitted.map((event) =>
        event.kind === 'cdp' ? (event.params as Record<string, unknown>)['context'] : undefined,
      ),
    ).toEqual([expect.objectContaining({ id: 1 })]);
    await tab.runner.run({
      kind: 'cdp',
      method: 'Runtime.evaluate',
      params: { expression: '1', contextId: 1 },
    });
    await expect(
      tab.runner.run({ kind: 'cdp', method: 'Runtime.evaluate', params: { expression: '1', contextId: 2 } }),
    ).rejects.toMatchObject({ code: 'TASK_REFUSED', message: expect.stringMatching(/context 2/) });
    await tab.runner.run({
      kind: 'cdp',
      method: 'Page.createIsolatedWorld',
      params: { frameId: 'F', worldName: 'mine', grantUniveralAccess: true },
    });
    expect(tab.sent.at(-1)).toEqual({
      method: 'Page.createIsolatedWorld',
      params: { frameId: 'F', worldName: 'mine', grantUniveralAccess: false },
    });
  });
});
