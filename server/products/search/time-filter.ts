const HOUR_MS = 60 * 60 * 1000;
const SPANS_MS: Record<string, number> = {
  h: HOUR_MS,
  d: 24 * HOUR_MS,
  w: 7 * 24 * HOUR_MS,
  m: 31 * 24 * HOUR_MS,
  y: 366 * 24 * HOUR_MS,
};

/** `M/D/YYYY`, as Google's custom date ranges write it. */
function usDate(text: string | undefined, endOfDay: boolean): Date | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text ?? '');
  if (match === null) return undefined;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return endOfDay
    ? new Date(Date.UTC(year, month - 1, day, 23, 59, 59, 999))
    : new Date(Date.UTC(year, month - 1, day));
}

/**
 * Google's `tbs` time filter as a time window: `qdr:h|d|w|m|y` (the last hour … year, optionally
 * with a count such as `qdr:d3`) or `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`. The local index applies
 * it to when it last saw each page; other providers pass `tbs` to their engines.
 */
export function timeWindow(tbs: string | undefined, now = new Date()): { from?: Date; to?: Date } {
  const recent = /qdr:([hdwmy])(\d*)/.exec(tbs ?? '');
  if (recent !== null) {
    const count = recent[2] === '' ? 1 : Number(recent[2]);
    return { from: new Date(now.getTime() - count * SPANS_MS[recent[1]!]!) };
  }
  if (/(^|,)cdr:1(,|$)/.test(tbs ?? '')) {
    const from = usDate(/cd_min:([^,]*)/.exec(tbs ?? '')?.[1], false);
    const to = usDate(/cd_max:([^,]*)/.exec(tbs ?? '')?.[1], true);
    return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  }
  return {};
}
