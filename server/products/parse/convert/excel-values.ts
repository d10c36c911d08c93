/** Built-in number formats that show dates or times (ECMA-376 Part 1, §18.8.30, and the CJK ones). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/** Whether a number format shows its number as a date or time (`yyyy-mm-dd`, `[$-409]d mmm`, `h:mm`). */
export function isDateFormat(numFmtId: number, formatCode: string | undefined): boolean {
  if (DATE_FORMAT_IDS.has(numFmtId)) return true;
  if (formatCode === undefined) return false;
  // Quoted text, escaped characters and [colour]/[$-locale] sections say nothing about the value.
  const tokens = formatCode.replace(/"[^"]*"|\\.|\[(?![hms]+\])[^\]]*\]/gi, '');
  return /[dmyhs]/i.test(tokens);
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Excel's 1900 date system counts 1900-02-29, which never was: serials from 61 on are a day ahead. */
const EPOCH_1900 = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** A date serial as ISO text: a date, a time of day, or both, as much as the serial holds. */
export function serialToIso(serial: number, date1904: boolean): string {
  const days = date1904 || serial < 61 ? serial : serial - 1;
  const ms = Math.round(((date1904 ? EPOCH_1904 : EPOCH_1900) + days * DAY_MS) / 1000) * 1000;
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (serial >= 0 && serial < 1 && !date1904) return time;
  return time === '00:00:00' ? date : `${date} ${time}`;
}

/** A stored number as Excel shows it in General format: 15 significant digits at most. */
export function generalNumber(text: string): string {
  const value = Number(text);
  if (!Number.isFinite(value)) return text;
  return String(Number.parseFloat(value.toPrecision(15)));
}
