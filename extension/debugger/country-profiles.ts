/** What emulating a country means for a page: its language, clock and (approximate) position. */
export interface CountryProfile {
  locale: string;
  timezone: string;
  /** The capital (or main city): a plausible position, not a precise one. */
  latitude: number;
  longitude: number;
}

/**
 * The countries callers ask for most, as `locale timezone latitude longitude`. Other valid codes
 * fall back to COUNTRY_FALLBACK's language and clock with the country's region on the locale.
 */
const TABLE = `
US en-US America/New_York 38.9 -77.04
CA en-CA America/Toronto 45.42 -75.7
MX es-MX America/Mexico_City 19.43 -99.13
BR pt-BR America/Sao_Paulo -23.55 -46.63
AR es-AR America/Argentina/Buenos_Aires -34.6 -58.38
CL es-CL America/Santiago -33.45 -70.67
CO es-CO America/Bogota 4.71 -74.07
GB en-GB Europe/London 51.51 -0.13
IE en-IE Europe/Dublin 53.35 -6.26
FR fr-FR Europe/Paris 48.86 2.35
DE de-DE Europe/Berlin 52.52 13.4
AT de-AT Europe/Vienna 48.21 16.37
CH de-CH Europe/Zurich 47.38 8.54
NL nl-NL Europe/Amsterdam 52.37 4.9
BE nl-BE Europe/Brussels 50.85 4.35
ES es-ES Europe/Madrid 40.42 -3.7
PT pt-PT Europe/Lisbon 38.72 -9.14
IT it-IT Europe/Rome 41.9 12.5
SE sv-SE Europe/Stockholm 59.33 18.07
NO nb-NO Europe/Oslo 59.91 10.75
DK da-DK Europe/Copenhagen 55.68 12.57
FI fi-FI Europe/Helsinki 60.17 24.94
PL pl-PL Europe/Warsaw 52.23 21.01
CZ cs-CZ Europe/Prague 50.08 14.44
HU hu-HU Europe/Budapest 47.5 19.04
RO ro-RO Europe/Bucharest 44.43 26.1
GR el-GR Europe/Athens 37.98 23.73
TR tr-TR Europe/Istanbul 41.01 28.98
UA uk-UA Europe/Kyiv 50.45 30.52
RU ru-RU Europe/Moscow 55.76 37.62
IL he-IL Asia/Jerusalem 31.77 35.21
AE ar-AE Asia/Dubai 25.2 55.27
SA ar-SA Asia/Riyadh 24.71 46.68
EG ar-EG Africa/Cairo 30.04 31.24
NG en-NG Africa/Lagos 6.52 3.38
KE en-KE Africa/Nairobi -1.29 36.82
ZA en-ZA Africa/Johannesburg -26.2 28.05
IN hi-IN Asia/Kolkata 28.61 77.21
PK ur-PK Asia/Karachi 24.86 67.01
BD bn-BD Asia/Dhaka 23.81 90.41
TH th-TH Asia/Bangkok 13.76 100.5
VN vi-VN Asia/Ho_Chi_Minh 10.82 106.63
ID id-ID Asia/Jakarta -6.21 106.85
MY ms-MY Asia/Kuala_Lumpur 3.14 101.69
SG en-SG Asia/Singapore 1.35 103.82
PH en-PH Asia/Manila 14.6 120.98
CN zh-CN Asia/Shanghai 39.9 116.41
HK zh-HK Asia/Hong_Kong 22.32 114.17
TW zh-TW Asia/Taipei 25.03 121.57
KR ko-KR Asia/Seoul 37.57 126.98
JP ja-JP Asia/Tokyo 35.68 139.69
AU en-AU Australia/Sydney -33.87 151.21
NZ en-NZ Pacific/Auckland -36.85 174.76
`;

const PROFILES: ReadonlyMap<string, CountryProfile> = new Map(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const [code, locale, timezone, latitude, longitude] = line.trim().split(/\s+/) as [
        string,
        string,
        string,
        string,
        string,
      ];
      return [code, { locale, timezone, latitude: Number(latitude), longitude: Number(longitude) }];
    }),
);

/** `US-generic` (Firecrawl's default) and unknown countries get these, minus the position. */
const COUNTRY_FALLBACK = PROFILES.get('US') as CountryProfile;

/**
 * The profile of an ISO 3166-1 alpha-2 code (any case) or `US-generic`. Countries missing from
 * the table keep the fallback's clock, get English for their region, and no position.
 */
export function countryProfile(country: string): CountryProfile & { known: boolean } {
  const code = country.toUpperCase() === 'US-GENERIC' ? 'US' : country.toUpperCase();
  const profile = PROFILES.get(code);
  if (profile !== undefined) return { ...profile, known: true };
  return { ...COUNTRY_FALLBACK, locale: /^[A-Z]{2}$/.test(code) ? `en-${code}` : 'en-US', known: false };
}
