import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_CDP_METHODS,
  CdpMethodNotAllowedError,
  assertCdpMethodAllowed,
} from '../../../extension/debugger/cdp-allowlist';

const EXTENSION = fileURLToPath(new URL('../../../extension', import.meta.url));

describe('the CDP allowlist', () => {
  it('lets the methods tasks need through', () => {
    for (const method of [
      'Page.navigate',
      'Runtime.evaluate',
      'Page.captureScreenshot',
      'Input.insertText',
    ]) {
      expect(() => assertCdpMethodAllowed(method)).not.toThrow();
    }
  });

  it('refuses cookie access, rewriting intercepted requests and browser-wide domains', () => {
    for (const method of [
      'Network.getAllCookies',
      'Network.setCookie',
      'Storage.getCookies',
      'Fetch.fulfillRequest',
      'Fetch.continueWithAuth',
      'Fetch.takeResponseBodyAsStream',
      'Target.createBrowserContext',
      'Browser.grantPermissions',
      'Runtime.compileScript',
    ]) {
      expect(() => assertCdpMethodAllowed(method)).toThrow(CdpMethodNotAllowedError);
    }
  });

  it('covers every method the extension sends', async () => {
    const sent = new Set<string>();
    const files = (await readdir(EXTENSION, { recursive: true })).filter((file) => file.endsWith('.ts'));
    for (const file of files) {
      const source = await readFile(path.join(EXTENSION, file), 'utf8');
      for (const match of source.matchAll(
        /(?:send(?:<[^>]*>)?\(|method: )\s*'([A-Z][A-Za-z]+\.[a-zA-Z]+)'/g,
      )) {
        sent.add(match[1] as string);
      }
    }
    expect(sent.size).toBeGreaterThan(15);
    expect([...sent].filter((method) => !ALLOWED_CDP_METHODS.has(method))).toEqual([]);
  });
});
