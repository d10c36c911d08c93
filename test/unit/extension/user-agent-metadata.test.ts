import { describe, expect, it } from 'vitest';
import { ALLOWED_CDP_METHODS } from '../../../extension/debugger/cdp-allowlist';
import { emulationCommands } from '../../../extension/debugger/emulation-commands';
import {
  mobileUserAgentMetadata,
  type UserAgentMetadata,
} from '../../../extension/debugger/user-agent-metadata';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const METADATA: UserAgentMetadata = {
  brands: [
    { brand: 'Not:A-Brand', version: '8' },
    { brand: 'Chromium', version: '156' },
  ],
  fullVersionList: [
    { brand: 'Not:A-Brand', version: '8.0.0.0' },
    { brand: 'Chromium', version: '156.0.8078.108' },
  ],
  platform: 'Linux',
  platformVersion: '',
  architecture: 'x86',
  model: '',
  mobile: false,
  bitness: '64',
  wow64: false,
};

const overrideOf = (spec: Parameters<typeof emulationCommands>[0]) =>
  emulationCommands(spec, UA, METADATA).find((command) => command.method === 'Emulation.setUserAgentOverride')
    ?.params;

describe('a user agent override', () => {
  it("carries the browser's own client hints with a location, so userAgentData and Sec-CH-UA still agree", () => {
    const params = overrideOf({ url: 'https://a.test/', waitForMs: 0, location: { country: 'DE' } });
    expect(params).toMatchObject({ userAgent: UA, acceptLanguage: 'de-DE,de', userAgentMetadata: METADATA });
  });

  it('turns them into the same browser on an Android phone for mobile', () => {
    const params = overrideOf({ url: 'https://a.test/', waitForMs: 0, mobile: true });
    expect(params?.userAgentMetadata).toEqual(mobileUserAgentMetadata(METADATA));
    expect(params?.userAgentMetadata).toMatchObject({
      platform: 'Android',
      mobile: true,
      model: 'K',
      brands: METADATA.brands,
    });
  });
});

describe('DevTools artefacts a page could see', () => {
  it('never enables Runtime, Debugger or Console on a task tab: nothing serialises console arguments or pauses', () => {
    for (const method of ALLOWED_CDP_METHODS) {
      expect(method).not.toMatch(/^(Runtime|Debugger|Console|Log)\.enable$/);
      expect(method.startsWith('Debugger.')).toBe(false);
    }
  });
});
