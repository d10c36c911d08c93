import { describe, expect, it } from 'vitest';
import { checkRelayCommand, type RelayScope } from '../../../extension/sessions/cdp-relay-allowlist';
import { createRelayContexts } from '../../../extension/sessions/cdp-relay-contexts';

/** A tab whose main world is context 1 and whose extension content-script world is context 2. */
function tabContexts() {
  const contexts = createRelayContexts();
  contexts.observe('Runtime.executionContextCreated', {
    context: {
      id: 1,
      uniqueId: 'main-unique',
      origin: 'https://shop.example',
      name: '',
      auxData: { isDefault: true, type: 'default', frameId: 'F' },
    },
  });
  contexts.observe('Runtime.executionContextCreated', {
    context: {
      id: 2,
      uniqueId: 'extension-unique',
      origin: 'chrome-extension://bldifabcdefghijklmnop',
      name: 'Tabhive',
      auxData: { isDefault: false, type: 'isolated', frameId: 'F' },
    },
  });
  contexts.observe('Runtime.executionContextCreated', {
    context: {
      id: 3,
      uniqueId: 'capture-unique',
      origin: 'https://shop.example',
      name: 'tabhive',
      auxData: { isDefault: false, type: 'isolated', frameId: 'F' },
    },
  });
  return contexts;
}

const launched = (contexts = tabContexts()): RelayScope => ({ donated: false, contexts });
const donated = (contexts = tabContexts()): RelayScope => ({ donated: true, contexts });

const passes = (method: string, params: unknown, scope = launched()) => {
  const verdict = checkRelayCommand(method, params, scope);
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict.params;
};
const refusal = (method: string, params: unknown, scope = launched()) => {
  const verdict = checkRelayCommand(method, params, scope);
  return verdict.ok ? undefined : verdict.reason;
};

describe("the cdpUrl relay's allowlist", () => {
  it('passes the page-scoped commands Playwright and Puppeteer send', () => {
    passes('Page.navigate', { url: 'https://example.com/', frameId: 'ABC', referrerPolicy: 'unsafeUrl' });
    passes('Page.navigate', { url: 'about:blank' });
    passes('Runtime.evaluate', { expression: '1', contextId: 1, returnByValue: true });
    passes('Runtime.callFunctionOn', {
      functionDeclaration: '(a) => a',
      objectId: '-886721959.1.1',
      arguments: [{ objectId: '-886721959.1.1' }, { value: { contextId: 99 } }],
    });
    passes('DOM.resolveNode', { backendNodeId: 15, executionContextId: 1 });
    passes('Input.dispatchMouseEvent', { type: 'mousePressed', x: 1, y: 2, button: 'left', clickCount: 1 });
    passes('Input.dispatchDragEvent', {
      type: 'drop',
      x: 1,
      y: 1,
      data: { items: [{ mimeType: 'text/plain', data: 'hello' }], dragOperationsMask: 1 },
    });
    passes('Page.printToPDF', { transferMode: 'ReturnAsBase64', scale: 1 });
    passes('Network.setExtraHTTPHeaders', { headers: { 'X-Test': '1' } });
  });

  it('refuses a drag that carries files, and file inputs (N1)', () => {
    expect(
      refusal('Input.dispatchDragEvent', {
        type: 'drop',
        x: 1,
        y: 1,
        data: { items: [], files: ['/etc/passwd'], dragOperationsMask: 1 },
      }),
    ).toMatch(/files are not available/);
    expect(refusal('DOM.setFileInputFiles', { files: ['/etc/passwd'], nodeId: 1 })).toMatch(/reads files/);
    expect(refusal('DOM.getFileInfo', { objectId: '1.1.1' })).toMatch(/reveals paths/);
  });

  it('refuses contexts, objects and worlds the client did not get (N3)', () => {
    expect(refusal('Runtime.evaluate', { expression: 'chrome.storage', contextId: 2 })).toMatch(
      /execution context 2 is not one this client may reach/,
    );
    expect(refusal('Runtime.evaluate', { expression: '1', contextId: 3 })).toMatch(/context 3/);
    expect(refusal('Runtime.evaluate', { expression: '1', contextId: 77 })).toMatch(/context 77/);
    expect(refusal('Runtime.evaluate', { expression: '1', uniqueContextId: 'extension-unique' })).toMatch(
      /not one this client may reach/,
    );
    passes('Runtime.evaluate', { expression: '1', uniqueContextId: 'main-unique' });
    expect(refusal('Runtime.callFunctionOn', { functionDeclaration: 'f', objectId: '-5.2.1' })).toMatch(
      /object -5.2.1 belongs to a context/,
    );
    expect(
      refusal('Runtime.callFunctionOn', {
        functionDeclaration: 'f',
        executionContextId: 1,
        arguments: [{ objectId: '-5.2.7' }],
      }),
    ).toMatch(/-5.2.7/);
    expect(refusal('DOM.resolveNode', { backendNodeId: 1, executionContextId: 2 })).toMatch(/context 2/);
    expect(refusal('Runtime.getProperties', { objectId: '-5.2.1' })).toMatch(/-5.2.1/);
    expect(refusal('Runtime.awaitPromise', { promiseObjectId: '-5.3.1' })).toMatch(/-5.3.1/);
    expect(refusal('Runtime.addBinding', { name: 'b', executionContextName: 'Tabhive' })).toMatch(/Tabhive/);
    expect(refusal('Runtime.addBinding', { name: 'b', executionContextName: 'their-world' })).toMatch(
      /world "their-world" is not one this client created/,
    );
    expect(refusal('Runtime.addBinding', { name: 'b', executionContextId: 2 })).toMatch(/context 2/);
    for (const name of ['tabhive', 'tabhive-session', 'TabHive']) {
      expect(refusal('Page.createIsolatedWorld', { frameId: 'F', worldName: name })).toMatch(/Tabhive’s own/);
    }
  });

  it("reaches the worlds the client created, and only those, even under the extension's name", () => {
    const contexts = tabContexts();
    expect(contexts.nameWorld('__puppeteer_utility_world__')).toBe(true);
    contexts.nameWorld('Tabhive');
    contexts.observe('Runtime.executionContextCreated', {
      context: {
        id: 9,
        uniqueId: 'u9',
        origin: 'https://shop.example',
        name: '__puppeteer_utility_world__',
        auxData: { isDefault: false, type: 'isolated' },
      },
    });
    // Re-announced (Runtime.enable again): the extension's world keeps its extension origin.
    contexts.observe('Runtime.executionContextCreated', {
      context: {
        id: 2,
        uniqueId: 'extension-unique',
        origin: 'chrome-extension://bldifabcdefghijklmnop',
        name: 'Tabhive',
        auxData: { isDefault: false, type: 'isolated' },
      },
    });
    passes('Runtime.evaluate', { expression: '1', contextId: 9 }, launched(contexts));
    expect(refusal('Runtime.evaluate', { expression: '1', contextId: 2 }, launched(contexts))).toBeDefined();
    contexts.created(12);
    passes('Runtime.evaluate', { expression: '1', contextId: 12 }, launched(contexts));
    contexts.observe('Runtime.executionContextsCleared', {});
    expect(refusal('Runtime.evaluate', { expression: '1', contextId: 9 }, launched(contexts))).toBeDefined();
    expect(contexts.showsEvent('Runtime.executionContextCreated', { context: { id: 2 } })).toBe(false);
    // Nor its console lines or exceptions; the end of a context the client knew, it hears of.
    expect(contexts.showsEvent('Runtime.consoleAPICalled', { executionContextId: 2, args: [] })).toBe(false);
    expect(
      contexts.showsEvent('Runtime.exceptionThrown', { exceptionDetails: { executionContextId: 2 } }),
    ).toBe(false);
    expect(contexts.showsEvent('Runtime.executionContextDestroyed', { executionContextId: 9 })).toBe(true);
    expect(contexts.showsEvent('Runtime.executionContextDestroyed', { executionContextId: 2 })).toBe(false);
    expect(contexts.showsEvent('Page.loadEventFired', { timestamp: 1 })).toBe(true);
  });

  it('takes universal access away from the worlds a client creates', () => {
    expect(
      passes('Page.createIsolatedWorld', { frameId: 'F', worldName: 'w', grantUniveralAccess: true }),
    ).toEqual({ frameId: 'F', worldName: 'w', grantUniveralAccess: false });
  });

  it('keeps navigations to web addresses', () => {
    for (const url of [
      'file:///etc/passwd',
      'chrome://settings',
      'chrome-extension://abc/launch.json',
      'javascript:alert(1)',
      'data:text/html,x',
      'view-source:https://a.example/',
      'http://user:pw@a.example/',
      'about:srcdoc',
    ]) {
      expect(refusal('Page.navigate', { url }), url).toMatch(/http\(s\)/);
    }
    expect(refusal('Page.navigate', { url: 7 })).toMatch(/url: .*expected string/);
  });

  it('refuses unknown parameters, wrong types and oversized values', () => {
    expect(refusal('Page.navigate', { url: 'https://a.example/', extra: 1 })).toMatch(/Unrecognized key/);
    expect(refusal('Runtime.evaluate', { expression: 5 })).toMatch(/expression/);
    expect(refusal('Runtime.evaluate', { expression: 'x'.repeat(5 * 1024 * 1024) })).toMatch(/expression/);
    expect(refusal('Page.printToPDF', { transferMode: 'ReturnAsStream' })).toMatch(/transferMode/);
    expect(refusal('Network.setExtraHTTPHeaders', { headers: { Host: 'evil.example' } })).toMatch(/Host/);
    expect(refusal('Page.setLifecycleEventsEnabled', { enabled: false })).toMatch(/enabled/);
  });

  it('refuses what reaches beyond the tab, naming the method and why', () => {
    for (const [method, why] of [
      ['Target.createTarget', /other tabs/],
      ['Browser.close', /whole browser/],
      ['Storage.getCookies', /storage and cookies/],
      ['Fetch.enable', /rewritten or answered/],
      ['IO.read', /handles/],
      ['Debugger.enable', /extension’s included/],
      ['Extensions.loadUnpacked', /extensions/],
      ['Network.getAllCookies', /every site’s cookies/],
      ['Page.setDownloadBehavior', /downloads/],
      ['Page.startScreencast', /live view/],
      ['Runtime.queryObjects', /heap/],
      ['WebMCP.enable', /allowlist/],
    ] as const) {
      expect(refusal(method, {}), method).toMatch(
        new RegExp(`^${method.replace('.', '\\.')} is not available`),
      );
      expect(refusal(method, {}), method).toMatch(why);
    }
  });

  it("refuses cookie reads and writes and window focus on a person's own browser only", () => {
    for (const [method, params] of [
      ['Network.getCookies', {}],
      ['Network.setCookie', { name: 'a', value: 'b', url: 'https://a.example/' }],
      ['Network.deleteCookies', { name: 'a' }],
      ['Page.bringToFront', {}],
    ] as const) {
      expect(refusal(method, params, launched()), method).toBeUndefined();
      expect(refusal(method, params, donated()), method).toMatch(/owner/);
    }
  });
});
