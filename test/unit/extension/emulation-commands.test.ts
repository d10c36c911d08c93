import { describe, expect, it } from 'vitest';
import { countryProfile } from '../../../extension/debugger/country-profiles';
import {
  acceptLanguage,
  desktopUserAgent,
  emulationCommands,
  mobileUserAgent,
} from '../../../extension/debugger/emulation-commands';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
const methods = (spec: Parameters<typeof emulationCommands>[0]) =>
  emulationCommands(spec, UA).map((command) => command.method);

describe('emulation commands', () => {
  it('emulates nothing for a plain task without ad blocking', () => {
    expect(emulationCommands({ url: 'https://a.test/', waitForMs: 0, blockAds: false }, UA)).toEqual([]);
  });

  it('hides cookie banners before page scripts run when blocking ads (the default)', () => {
    const [command, ...rest] = emulationCommands({ url: 'https://a.test/', waitForMs: 0 }, UA);
    expect(rest).toEqual([]);
    expect(command?.method).toBe('Page.addScriptToEvaluateOnNewDocument');
    expect(String(command?.params.source)).toContain('#onetrust-consent-sdk');
  });

  it('makes a phone: metrics, touch and a mobile user agent of the same Chrome', () => {
    const commands = emulationCommands(
      { url: 'https://a.test/', waitForMs: 0, mobile: true, blockAds: false },
      UA,
    );
    expect(commands.map((command) => command.method)).toEqual([
      'Emulation.setDeviceMetricsOverride',
      'Emulation.setTouchEmulationEnabled',
      'Emulation.setUserAgentOverride',
    ]);
    expect(commands[0]?.params).toMatchObject({ width: 412, mobile: true });
    expect(commands[2]?.params.userAgent).toBe(
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
    );
  });

  it('gives a country its language, clock and position', () => {
    const commands = emulationCommands(
      { url: 'https://a.test/', waitForMs: 0, location: { country: 'DE' }, blockAds: false },
      UA,
    );
    expect(commands.map((command) => command.method)).toEqual([
      'Emulation.setUserAgentOverride',
      'Emulation.setLocaleOverride',
      'Emulation.setTimezoneOverride',
      'Page.addScriptToEvaluateOnNewDocument',
    ]);
    expect(commands[0]?.params).toEqual({ userAgent: desktopUserAgent(UA), acceptLanguage: 'de-DE,de' });
    expect(commands[1]?.params).toEqual({ locale: 'de-DE' });
    expect(commands[2]?.params).toEqual({ timezoneId: 'Europe/Berlin' });
    expect(String(commands[3]?.params.source)).toContain('52.52, 13.4');
  });

  it('prefers the caller languages, and ignores a malformed one for the Intl locale', () => {
    const commands = emulationCommands(
      {
        url: 'https://a.test/',
        waitForMs: 0,
        location: { country: 'US-generic', languages: ['fr-CA', 'en'] },
      },
      UA,
    );
    expect(commands.find((c) => c.method === 'Emulation.setUserAgentOverride')?.params.acceptLanguage).toBe(
      'fr-CA,en',
    );
    expect(commands.find((c) => c.method === 'Emulation.setLocaleOverride')?.params).toEqual({
      locale: 'fr-CA',
    });
    expect(
      methods({ url: 'https://a.test/', waitForMs: 0, location: { country: 'US', languages: ['??'] } }),
    ).toContain('Emulation.setLocaleOverride');
  });

  it('spells user agents and Accept-Language as browsers do', () => {
    expect(desktopUserAgent(UA)).not.toContain('Headless');
    expect(mobileUserAgent('no version here')).toContain('Chrome/120.0.0.0 Mobile');
    expect(acceptLanguage(['ja-JP'])).toBe('ja-JP,ja');
    expect(acceptLanguage(['en'])).toBe('en');
  });
});

describe('country profiles', () => {
  it('knows the common countries in any case, and US-generic', () => {
    expect(countryProfile('jp')).toEqual({
      locale: 'ja-JP',
      timezone: 'Asia/Tokyo',
      latitude: 35.68,
      longitude: 139.69,
      known: true,
    });
    expect(countryProfile('US-generic')).toMatchObject({ locale: 'en-US', known: true });
  });

  it('falls back to English for the region, and no position, for other countries', () => {
    expect(countryProfile('IS')).toMatchObject({
      locale: 'en-IS',
      timezone: 'America/New_York',
      known: false,
    });
  });

  it('has valid time zones and positions for every listed country', () => {
    for (const code of ['US', 'GB', 'DE', 'FR', 'BR', 'IN', 'CN', 'AU', 'ZA', 'NZ']) {
      const profile = countryProfile(code);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: profile.timezone })).not.toThrow();
      expect(Math.abs(profile.latitude)).toBeLessThanOrEqual(90);
      expect(Math.abs(profile.longitude)).toBeLessThanOrEqual(180);
      expect(Intl.getCanonicalLocales(profile.locale)).toEqual([profile.locale]);
    }
  });
});
