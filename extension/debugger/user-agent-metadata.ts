/**
 * The client hints of a user agent override (CDP's Emulation.UserAgentMetadata). Chromium derives
 * both `navigator.userAgentData` and the `Sec-CH-UA*` headers from it; an override without it
 * leaves pages empty brands and no platform while the user agent says Chrome, and sends no
 * Sec-CH-UA at all: a browser that disagrees with itself.
 */
export interface UserAgentMetadata {
  brands: Array<{ brand: string; version: string }>;
  fullVersionList: Array<{ brand: string; version: string }>;
  platform: string;
  platformVersion: string;
  architecture: string;
  model: string;
  mobile: boolean;
  bitness: string;
  wow64: boolean;
}

interface NavigatorUaData {
  getHighEntropyValues(hints: string[]): Promise<Partial<UserAgentMetadata>>;
}

let cached: Promise<UserAgentMetadata | undefined> | undefined;

/**
 * This browser's own client hints, read once from the worker's `navigator.userAgentData` (which
 * Chromium fills from the same metadata as a page's). Undefined where the API is missing.
 */
export function browserUserAgentMetadata(): Promise<UserAgentMetadata | undefined> {
  cached ??= (async () => {
    const data = (navigator as Navigator & { userAgentData?: NavigatorUaData }).userAgentData;
    if (data === undefined) return undefined;
    const values = await data.getHighEntropyValues([
      'architecture',
      'bitness',
      'fullVersionList',
      'model',
      'platformVersion',
      'wow64',
    ]);
    return {
      brands: values.brands ?? [],
      fullVersionList: values.fullVersionList ?? [],
      platform: values.platform ?? '',
      platformVersion: values.platformVersion ?? '',
      architecture: values.architecture ?? '',
      model: values.model ?? '',
      mobile: values.mobile ?? false,
      bitness: values.bitness ?? '',
      wow64: values.wow64 ?? false,
    };
  })().catch(() => undefined);
  return cached;
}

/**
 * The same browser as a phone presents it (mobileUserAgent's Android 10 "K" device): the same
 * brands and versions, an Android platform, no desktop architecture.
 */
export function mobileUserAgentMetadata(desktop: UserAgentMetadata): UserAgentMetadata {
  return {
    ...desktop,
    platform: 'Android',
    platformVersion: '10.0.0',
    architecture: '',
    bitness: '',
    model: 'K',
    mobile: true,
    wow64: false,
  };
}
