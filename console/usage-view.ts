import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { callJson, type WhoAmI } from './api';
import { BarChart } from './bar-chart';

interface UsageReport {
  days: Array<{ day: string; credits: number }>;
  byKey: Array<{ apiKey: string; credits: number }>;
  byRoute: Array<{ route: string; credits: number }>;
  byTeam: Array<{ teamId: string; credits: number }>;
  truncated: boolean;
}
interface ApiKeyView {
  keyId: string;
  hint: string;
  teamId: string;
  label: string;
  createdAt: string;
  revokedAt?: string;
}

/** Credits of the last 14 days by day (chart and table), by key, by route; for the admin, by team and the keys. */
export function UsageView({ who }: { who: WhoAmI }) {
  const [report, setReport] = useState<UsageReport | null>(null);
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    callJson<{ data: UsageReport }>('/console/api/usage?days=14').then(
      (body) => setReport(body.data),
      (err: unknown) => setProblem(String(err)),
    );
    if (who.admin)
      callJson<{ data: ApiKeyView[] }>('/admin/v1/keys').then(
        (body) => setKeys(body.data),
        () => setKeys(null),
      );
  }, []);

  if (report === null)
    return h(
      'section',
      null,
      h('h1', null, 'Usage'),
      h('p', { role: 'status', class: problem ? 'error' : '' }, problem || 'Loading…'),
    );
  const total = report.days.reduce((sum, day) => sum + day.credits, 0);
  return h(
    'section',
    { 'aria-labelledby': 'usage-title' },
    h('h1', { id: 'usage-title' }, 'Usage'),
    h('p', null, `${total} credits in the last 14 days${report.truncated ? ' (newest entries only)' : ''}.`),
    h(BarChart, {
      items: report.days.map((day) => ({ name: day.day, value: day.credits })),
      label: `Credits by day, last 14 days, ${total} in all`,
    }),
    list(
      'Credits by day',
      ['Day', 'Credits'],
      report.days.filter((day) => day.credits > 0).map((day) => [day.day, day.credits]),
    ),
    list(
      'Credits by API key',
      ['Key', 'Credits'],
      report.byKey.map((row) => [row.apiKey, row.credits]),
    ),
    list(
      'Credits by route',
      ['Route', 'Credits'],
      report.byRoute.map((row) => [row.route, row.credits]),
    ),
    who.admin
      ? list(
          'Credits by team',
          ['Team', 'Credits'],
          report.byTeam.map((row) => [row.teamId, row.credits]),
        )
      : null,
    keys === null
      ? null
      : list(
          'API keys',
          ['Key', 'Team', 'Label', 'Created', 'Revoked'],
          keys.map((key) => [`${key.hint}…`, key.teamId, key.label, key.createdAt, key.revokedAt ?? '–']),
        ),
  );
}

function list(title: string, columns: string[], rows: Array<Array<string | number>>) {
  const id = `usage-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h(
    'section',
    { 'aria-labelledby': id },
    h('h2', { id }, title),
    rows.length === 0
      ? h('p', null, 'Nothing yet.')
      : h(
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
                columns.map((column) => h('th', { scope: 'col' }, column)),
              ),
            ),
            h(
              'tbody',
              null,
              rows.map((row) =>
                h(
                  'tr',
                  null,
                  row.map((cell) => h('td', null, String(cell))),
                ),
              ),
            ),
          ),
        ),
  );
}
