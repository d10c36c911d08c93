import type { PageTaskSpec } from '../../shared/protocol/messages';
import { cookieBannerCss, hideCookieBanners } from '../page/cookie-banners';
import { countryProfile } from './country-profiles';
import { mobileUserAgentMetadata, type UserAgentMetadata } from './user-agent-metadata';

const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export interface CdpCommand {
  method: string;
  params: Record<string, unknown>;
}

/** Hides cookie banners in every document of the tab (blockAds, on unless the caller turns it off). */
export const COOKIE_BANNER_SCRIPT: CdpCommand = {
  method: 'Page.addScriptToEvaluateOnNewDocument',
  params: { source: `(${hideCookieBanners.toString()})(${JSON.stringify(cookieBannerCss())})` },
};

/** A mid-range phone (CSS pixels and density of a Pixel-class device). */
export const MOBILE_METRICS = { width: 412, height: 915, deviceScaleFactor: 2.625, mobile: true } as const;

/** The browser's own user agent, without the "Headless" that gives launched browsers away. */
export function desktopUserAgent(browserUserAgent: string): string {
  return browserUserAgent.replace('HeadlessChrome/', 'Chrome/');
}

/** The same Chrome build as it identifies itself on an Android phone. */
export function mobileUserAgent(browserUserAgent: string): string {
  const version = /Chrome\/([\d.]+)/.exec(browserUserAgent)?.[1] ?? '120.0.0.0';
  return `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Mobile Safari/537.36`;
}

/**
 * `acceptLanguage` for Emulation.setUserAgentOverride: a plain list, since Chromium adds the
 * q-values itself (`ja-JP,ja` goes out as `ja-JP,ja;q=0.9`); a single locale also offers its
 * bare language, as browsers do.
 */
export function acceptLanguage(languages: readonly string[]): string {
  const [first] = languages;
  const list =
    languages.length === 1 && first !== undefined && first.includes('-')
      ? [first, first.split('-')[0] as string]
      : languages;
  return list.map((language) => language.trim()).join(',');
}

/**
 * Replaces navigator.geolocation's answers with a fixed position. Emulation.setGeolocationOverride
 * returned no position in headless Chromium (docs/extension.md#geolocation), so the page gets this instead,
 * injected before its own scripts. Runs in the page: self-contained.
 */
export function geolocationShim(latitude: number, longitude: number): void {
  const coords = {
    latitude,
    longitude,
    accuracy: 50,
    altitude: null,
    altitudeAccuracy: null,
    heading: null,
    speed: null,
  };
  const position = () => ({
    coords: { ...coords, toJSON: () => coords },
    timestamp: Date.now(),
    toJSON: () => ({ coords, timestamp: Date.now() }),
  });
  const proto = (globalThis as unknown as { Geolocation?: { prototype: Record<string, unknown> } })
    .Geolocation?.prototype;
  if (proto === undefined) return;
  proto.getCurrentPosition = function (success: (p: unknown) => void) {
    setTimeout(() => success(position()), 0);
  };
  proto.watchPosition = function (success: (p: unknown) => void) {
    setTimeout(() => success(position()), 0);
    return 1;
  };
  proto.clearWatch = function () {};
}

/**
 * The CDP commands that give a task's tab its device, language, clock and position, and (with
 * blockAds) hide cookie banners. They hold for
 * the debugger session, which ends with the task; nothing outside the tab changes.
 * `userAgentMetadata` (the browser's own client hints, user-agent-metadata.ts) goes with a user
 * agent override, so that the page's `navigator.userAgentData` and the Sec-CH-UA headers still
 * agree with the user agent.
 */
export function emulationCommands(
  spec: PageTaskSpec,
  browserUserAgent: string,
  userAgentMetadata?: UserAgentMetadata,
): CdpCommand[] {
  const commands: CdpCommand[] = [];
  if (spec.mobile === true) {
    commands.push({ method: 'Emulation.setDeviceMetricsOverride', params: { ...MOBILE_METRICS } });
    commands.push({
      method: 'Emulation.setTouchEmulationEnabled',
      params: { enabled: true, maxTouchPoints: 5 },
    });
  }
  const location = spec.location;
  const profile = location === undefined ? undefined : countryProfile(location.country);
  if (spec.mobile === true || location !== undefined) {
    const userAgent =
      spec.mobile === true ? mobileUserAgent(browserUserAgent) : desktopUserAgent(browserUserAgent);
    const languages = location?.languages?.length ? location.languages : profile ? [profile.locale] : [];
    commands.push({
      method: 'Emulation.setUserAgentOverride',
      params: {
        userAgent,
        ...(languages.length > 0 ? { acceptLanguage: acceptLanguage(languages) } : {}),
        ...(spec.mobile === true ? { platform: 'Linux armv81' } : {}),
        ...(userAgentMetadata === undefined
          ? {}
          : {
              userAgentMetadata:
                spec.mobile === true ? mobileUserAgentMetadata(userAgentMetadata) : userAgentMetadata,
            }),
      },
    });
  }
  if (profile !== undefined) {
    const first = location?.languages?.[0];
    // ICU refuses malformed locales, and a caller's typo should not fail the page.
    const locale = first !== undefined && LOCALE.test(first) ? first : profile.locale;
    commands.push({ method: 'Emulation.setLocaleOverride', params: { locale } });
    commands.push({ method: 'Emulation.setTimezoneOverride', params: { timezoneId: profile.timezone } });
    if (profile.known) {
      commands.push({
        method: 'Page.addScriptToEvaluateOnNewDocument',
        params: { source: `(${geolocationShim.toString()})(${profile.latitude}, ${profile.longitude})` },
      });
    }
  }
  if (spec.blockAds !== false) commands.push(COOKIE_BANNER_SCRIPT);
  return commands;
}
