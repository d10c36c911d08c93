import { h } from 'preact';

/**
 * The one way the console writes a moment: the viewer's local time with its zone,
 * `2025-11-29 14:05:09 CET`, whatever the server sent (ISO strings in UTC). `timeZone` is for tests.
 */
export function formatTime(iso: string, { timeZone }: { timeZone?: string } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
      ...(timeZone === undefined ? {} : { timeZone }),
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}:${parts['second']} ${parts['timeZoneName']}`;
}

/** A moment in a table or a line: formatTime's text, the exact instant in `datetime`; `empty` for none. */
export const timeOf = (iso: string | null | undefined, empty = '–') =>
  iso === null || iso === undefined || iso === '' ? empty : h('time', { dateTime: iso }, formatTime(iso));

/**
 * The one way the console writes a key it cannot show: its first characters and last four around
 * one ellipsis (`fc-th_1a2B…x9Yz`), as much of either as the record holds. Key lists keep the
 * start (`fc-1…`), usage by key the end (`fc-…05cc`); either is written in this one form.
 */
export function keyHintText(hint: string): string {
  const [start = '', ...rest] = hint.split('…');
  const end = rest.filter((part) => part !== '').join('');
  return `${start}…${end}`;
}
