import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { callJson, type WhoAmI } from './api';
import type { ConsoleOverview } from './console-types';

type Overview = ConsoleOverview;

const REFRESH_MS = 2_000;

/** The instance at a glance, read every two seconds; pages/s from two successive counter readings. */
export function OverviewView({ who }: { who: WhoAmI }) {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [rate, setRate] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const previous = useRef<Overview | null>(null);

  useEffect(() => {
    const load = () =>
      callJson<{ data: Overview }>('/console/api/overview').then(
        (body) => {
          const before = previous.current;
          const now = body.data;
          if (before?.pagesScrapedTotal != null && now.pagesScrapedTotal !== null) {
            const seconds = (Date.parse(now.at) - Date.parse(before.at)) / 1000;
            if (seconds > 0) setRate((now.pagesScrapedTotal - before.pagesScrapedTotal) / seconds);
          }
          previous.current = now;
          setOverview(now);
          setProblem('');
        },
        (err: unknown) => setProblem(String(err)),
      );
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  const lookups = (overview?.cacheHits ?? 0) + (overview?.cacheMisses ?? 0);
  const tiles: Array<[string, string]> =
    overview === null
      ? []
      : [
          ...(who.admin
            ? ([
                ['Pages per second', rate === null ? '…' : rate.toFixed(1)],
                ['Pages scraped', String(overview.pagesScrapedTotal)],
                [
                  'Cache hit ratio',
                  lookups === 0
                    ? 'no lookups yet'
                    : `${Math.round(((overview.cacheHits ?? 0) / lookups) * 100)} %`,
                ],
                ['Browser tasks waiting', String(overview.browserTasksWaiting)],
              ] as Array<[string, string]>)
            : []),
          ['Pages queued', String(overview.queuedPages)],
          ['Browsers', String(overview.browsers)],
          ['Tabs busy', `${overview.tabsInUse} of ${overview.tabs}`],
          ['Tabs free', String(Math.max(0, overview.tabs - overview.tabsInUse))],
          ['Failed pages, last hour', String(overview.errorsLastHour)],
        ];

  return h(
    'section',
    { 'aria-labelledby': 'overview-title' },
    h('h1', { id: 'overview-title' }, 'Overview'),
    h(
      'p',
      { class: 'hint' },
      who.admin
        ? 'This instance, every team. Updated every 2 seconds.'
        : "Your team's queue and failures, and the browsers it can use. Updated every 2 seconds.",
    ),
    h('p', { class: 'error', role: 'alert' }, problem),
    overview === null
      ? h('p', { role: 'status' }, 'Loading…')
      : h(
          'dl',
          { class: 'tiles' },
          tiles.map(([name, value]) =>
            h('div', { class: 'tile' }, h('dt', null, name), h('dd', null, value)),
          ),
        ),
  );
}
