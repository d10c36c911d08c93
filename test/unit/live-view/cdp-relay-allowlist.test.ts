import { describe, expect, it } from 'vitest';
import { relayRefusal } from '../../../extension/sessions/cdp-relay-allowlist';

const launched = { donated: false };
const donated = { donated: true };

describe("the cdpUrl relay's allowlist", () => {
  it('lets the page-scoped commands Playwright sends through', () => {
    for (const method of [
      'Page.enable',
      'Page.getFrameTree',
      'Page.addScriptToEvaluateOnNewDocument',
      'Page.createIsolatedWorld',
      'Page.setLifecycleEventsEnabled',
      'Page.captureScreenshot',
      'Runtime.enable',
      'Runtime.callFunctionOn',
      'Runtime.addBinding',
      'DOM.getContentQuads',
      'DOM.scrollIntoViewIfNeeded',
      'DOM.describeNode',
      'Input.dispatchMouseEvent',
      'Emulation.setFocusEmulationEnabled',
      'Emulation.setEmulatedMedia',
      'Network.enable',
      'Network.setExtraHTTPHeaders',
      'Network.getResponseBody',
      'Log.enable',
      'Accessibility.getFullAXTree',
      'Overlay.highlightNode',
      'CSS.getComputedStyleForNode',
    ]) {
      expect(relayRefusal(method, {}, donated), method).toBeUndefined();
    }
    expect(relayRefusal('Page.navigate', { url: 'https://example.com/' }, donated)).toBeUndefined();
    expect(relayRefusal('Page.navigate', { url: 'about:blank' }, launched)).toBeUndefined();
  });

  it('refuses what reaches beyond the tab, everywhere', () => {
    for (const method of [
      'Target.createTarget',
      'Target.attachToTarget',
      'Browser.close',
      'Browser.grantPermissions',
      'Storage.getCookies',
      'Storage.clearDataForOrigin',
      'SystemInfo.getInfo',
      'Tethering.bind',
      'Tracing.start',
      'Fetch.enable',
      'Fetch.fulfillRequest',
      'Extensions.loadUnpacked',
      'Network.getAllCookies',
      'Network.clearBrowserCookies',
      'Network.loadNetworkResource',
      'DOM.setFileInputFiles',
      'Page.setDownloadBehavior',
      'Page.close',
      'Page.startScreencast',
      'IO.read',
    ]) {
      expect(relayRefusal(method, {}, launched), method).toMatch(/not available/);
    }
  });

  it('keeps navigations to web addresses', () => {
    for (const url of [
      'file:///etc/passwd',
      'chrome://settings',
      'javascript:alert(1)',
      'data:text/html,x',
      7,
    ]) {
      expect(relayRefusal('Page.navigate', { url }, launched)).toMatch(/http\(s\)/);
    }
  });

  it("refuses cookie and storage reads and writes on a person's own browser only", () => {
    for (const method of [
      'Network.getCookies',
      'Network.setCookie',
      'Network.deleteCookies',
      'DOMStorage.getDOMStorageItems',
      'IndexedDB.requestData',
      'Page.bringToFront',
    ]) {
      expect(relayRefusal(method, {}, launched), method).toBeUndefined();
      expect(relayRefusal(method, {}, donated), method).toBeDefined();
    }
  });

  it('refuses names that are not methods', () => {
    for (const method of ['Page', 'Page.', 'Page.navigate.extra', '']) {
      expect(relayRefusal(method, {}, launched)).toMatch(/not a CDP method name/);
    }
  });
});
