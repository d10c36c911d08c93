import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { callJson, type WhoAmI } from './api';
import type { ConsoleFigure, ConsoleFigureHistory, ConsoleOverview } from './console-types';
import { formatTime } from './format';
import { Sparkline } from './sparkline';

type Overview = ConsoleOverview;

const REFRESH_MS = 2_000;
/** The server samples its history every 15 s: reading it as often shows each new sample. */
const HISTORY_REFRESH_MS = 15_000;

interface Tile {
  name: string;
  value: string;
  /** The figure whose last hour is drawn under the value. */
  figure?: ConsoleFigure;
  /** A word on what the value covers, under it. */
  note?: string;
}

/** The history's values of one figure, for its line. */
const pointsOf = (history: ConsoleFigureHistory, figure: ConsoleFigure) =>
  history.samples.map((sample) => ({ at: sample.at, value: sample.values[figure] }));

/**
 * The instance at a glance for the key's scope (every team, or the key's team only), read every
 * two seconds, pages/s from two successive counter readings; beside the figures that move, a line
 * of their last hour from the server's history, read every sampling interval.
 */
export function OverviewView({ who }: { who: WhoAmI }) {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [history, setHistory] = useState<ConsoleFigureHistory | null>(null);
  const [rate, setRate] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const previous = useRef<Overview | null>(null);

  useEffect(() => {
    const load = () =>
      callJson<{ data: Overview }>('/console/api/overview').then(
        (body) => {
          const before = previous.current;
          const now = body.data;
          if (before !== null) {
            const seconds = (Date.parse(now.at) - Date.parse(before.at)) / 1000;
            if (seconds > 0) setRate(Math.max(0, now.pagesScrapedTotal - before.pagesScrapedTotal) / seconds);
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

  useEffect(() => {
    const load = () =>
      callJson<{ data: ConsoleFigureHistory }>('/console/api/overview/history').then(
        (body) => setHistory(body.data),
        // The lines are extra: the figures above say what went wrong.
        () => undefined,
      );
    void load();
    const timer = window.setInterval(() => void load(), HISTORY_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  const lookups = (overview?.cacheHits ?? 0) + (overview?.cacheMisses ?? 0);
  const credits = history?.samples.reduce((sum, sample) => sum + (sample.values.credits ?? 0), 0);
  const oldest = history?.samples[0]?.at;
  const fullHour =
    history !== null && oldest !== undefined && Date.now() - oldest >= history.keepMs - history.everyMs;
  const tiles: Tile[] =
    overview === null
      ? []
      : [
          {
            name: 'Pages per second',
            value: rate === null ? '…' : rate.toFixed(1),
            figure: 'pagesPerSecond',
          },
          { name: 'Pages scraped', value: String(overview.pagesScrapedTotal) },
          {
            name: 'Cache hit ratio',
            value: lookups === 0 ? 'no lookups yet' : `${Math.round((overview.cacheHits / lookups) * 100)} %`,
          },
          ...(overview.browserTasksWaiting === null
            ? []
            : [{ name: 'Browser tasks waiting', value: String(overview.browserTasksWaiting) }]),
          { name: 'Pages queued', value: String(overview.queuedPages), figure: 'queued' },
          { name: 'Browsers', value: String(overview.browsers) },
          { name: 'Tabs busy', value: `${overview.tabsInUse} of ${overview.tabs}`, figure: 'tabsBusy' },
          { name: 'Tabs free', value: String(Math.max(0, overview.tabs - overview.tabsInUse)) },
          { name: 'Failed pages, last hour', value: String(overview.errorsLastHour), figure: 'failed' },
          {
            name: 'Credits, last hour',
            value: credits === undefined ? '…' : String(credits),
            figure: 'credits',
            // The history starts with the instance: say so while it holds less than the hour.
            ...(fullHour || oldest === undefined
              ? {}
              : // The time of day is enough within the hour.
                { note: `since ${formatTime(new Date(oldest).toISOString()).slice('YYYY-MM-DD '.length)}` }),
          },
        ];
  const seconds = history === null ? 15 : Math.round(history.everyMs / 1000);
  const lineName = (tile: Tile) =>
    tile.figure === 'failed'
      ? `Pages failed in each ${seconds} s`
      : tile.figure === 'credits'
        ? `Credits booked in each ${seconds} s`
        : tile.name;

  return h(
    'section',
    { 'aria-labelledby': 'overview-title' },
    h('h1', { id: 'overview-title' }, 'Overview'),
    h(
      'p',
      { class: 'hint' },
      who.admin
        ? 'Every team. '
        : "Your team's pages, cache, queue, failures and credits, and the browsers it can use (the shared pool's too). ",
      `Figures now, updated every 2 seconds; the lines show the last hour, sampled every ${seconds} seconds.`,
    ),
    overview?.clustered === true
      ? h(
          'p',
          { class: 'hint', 'data-testid': 'instance-note' },
          'Pages per second, pages scraped, cache and tabs are those of the instance that answers; the queue, failures and credits are the whole cluster’s.',
        )
      : null,
    h('p', { class: 'error', role: 'alert' }, problem),
    overview === null
      ? h('p', { role: 'status' }, 'Loading…')
      : h(
          'dl',
          { class: 'tiles' },
          tiles.map((tile) =>
            h(
              'div',
              { class: 'tile', key: tile.name },
              h('dt', null, tile.name),
              h(
                'dd',
                null,
                h('span', { class: 'value' }, tile.value),
                tile.note === undefined ? null : h('small', { class: 'since' }, tile.note),
                tile.figure === undefined || history === null
                  ? null
                  : h(Sparkline, {
                      points: pointsOf(history, tile.figure),
                      label: lineName(tile),
                      windowMs: history.keepMs,
                      everyMs: history.everyMs,
                    }),
              ),
            ),
          ),
        ),
  );
}
