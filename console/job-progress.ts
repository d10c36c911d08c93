import { h } from 'preact';
import type { ConsoleJob } from './console-types';
import { percentDone } from './use-live-job';

/** A job's progress bar with its counts in words (the bar's accessible name says which job). */
export function JobProgress({ job, label }: { job: ConsoleJob; label: string }) {
  const percent = percentDone(job);
  return h(
    'div',
    { class: 'progress' },
    h('progress', {
      max: 100,
      value: percent,
      'aria-label': label,
      'aria-valuetext': `${percent} %`,
      'data-percent': String(percent),
    }),
    h('span', { class: 'percent' }, `${percent} %`),
  );
}
