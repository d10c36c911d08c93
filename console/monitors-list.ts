import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { callJson } from './api';

interface MonitorView {
  id: string;
  name: string;
  status: string;
  schedule: { cron: string; timezone: string; text?: string };
  nextRunAt: string | null;
  lastRunAt: string | null;
  estimatedCreditsPerMonth: number;
}

/** The team's monitors (`GET /v2/monitor`): scheduled checks, listed beside the jobs they start. */
export function MonitorsList() {
  const [monitors, setMonitors] = useState<MonitorView[] | null>(null);
  useEffect(() => {
    callJson<{ data: MonitorView[] }>('/v2/monitor').then(
      (body) => setMonitors(body.data),
      () => setMonitors(null),
    );
  }, []);
  if (monitors === null || monitors.length === 0) return null;
  return h(
    'section',
    { 'aria-labelledby': 'monitors-title' },
    h('h2', { id: 'monitors-title' }, `Monitors (${monitors.length})`),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        null,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Name', 'Status', 'Schedule', 'Last run', 'Next run', 'Credits / month'].map((name) =>
              h('th', { scope: 'col' }, name),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          monitors.map((monitor) =>
            h(
              'tr',
              { key: monitor.id },
              h('td', null, monitor.name),
              h('td', null, monitor.status),
              h(
                'td',
                null,
                monitor.schedule.text ?? `${monitor.schedule.cron} (${monitor.schedule.timezone})`,
              ),
              h('td', null, monitor.lastRunAt ?? '–'),
              h('td', null, monitor.nextRunAt ?? '–'),
              h('td', null, String(monitor.estimatedCreditsPerMonth)),
            ),
          ),
        ),
      ),
    ),
  );
}
