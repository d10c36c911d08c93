import { h } from 'preact';

export interface SparkPoint {
  at: number;
  value: number | undefined;
}

/** The drawing's own units; the page sizes it. */
const WIDTH = 120;
const HEIGHT = 32;
/** A gap longer than this many sampling intervals breaks the line (the server was down, say). */
const GAP_INTERVALS = 2.5;

const shortNumber = (value: number) =>
  Number.isInteger(value) ? String(value) : value < 10 ? value.toFixed(1) : String(Math.round(value));

/**
 * A figure over a time window as a small SVG line: time left to right across the whole window
 * (an hour, however much of it there are samples for), the value from zero at the bottom to the
 * window's highest at the top. What it shows is said in its accessible name, so the picture
 * alone says nothing the label does not.
 */
export function Sparkline({
  points,
  label,
  windowMs,
  everyMs,
  now = Date.now(),
}: {
  points: SparkPoint[];
  label: string;
  windowMs: number;
  everyMs: number;
  now?: number;
}) {
  const known = points.filter((point): point is { at: number; value: number } => point.value !== undefined);
  const top = Math.max(0, ...known.map((point) => point.value));
  const x = (at: number) => Math.max(0, Math.min(WIDTH, ((at - (now - windowMs)) / windowMs) * WIDTH));
  // Zero sits a little above the base line, so that a flat line still shows.
  const y = (value: number) => (top === 0 ? HEIGHT - 4 : HEIGHT - 4 - (value / top) * (HEIGHT - 6));
  const runs: Array<Array<{ at: number; value: number }>> = [];
  let previous: number | undefined;
  for (const point of points) {
    if (point.value === undefined) {
      previous = undefined;
      continue;
    }
    const run = runs[runs.length - 1];
    if (run === undefined || previous === undefined || point.at - previous > everyMs * GAP_INTERVALS)
      runs.push([{ at: point.at, value: point.value }]);
    else run.push({ at: point.at, value: point.value });
    previous = point.at;
  }
  const last = known[known.length - 1];
  const minutes = Math.round(windowMs / 60_000);
  const described =
    last === undefined
      ? `${label}: no samples yet`
      : `${label}, last ${minutes} minutes: from ${shortNumber(Math.min(...known.map((point) => point.value)))} to ${shortNumber(top)}, now ${shortNumber(last.value)}`;
  return h(
    'svg',
    {
      class: 'sparkline',
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      // Stretched to the tile's width (console.css): the lines keep their thickness (non-scaling strokes).
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': described,
      'data-points': String(known.length),
    },
    h('line', { class: 'sparkline-base', x1: 0, x2: WIDTH, y1: HEIGHT - 0.5, y2: HEIGHT - 0.5 }),
    runs.map((run) =>
      h('polyline', {
        // A lone sample is a short dash, so that it shows: a line needs two points.
        points: (run.length === 1 ? [run[0], run[0]] : run)
          .map((point, index) => {
            const at = x(point?.at ?? now) + (run.length === 1 ? index * 2 - 1 : 0);
            return `${at.toFixed(1)},${y(point?.value ?? 0).toFixed(1)}`;
          })
          .join(' '),
      }),
    ),
  );
}
