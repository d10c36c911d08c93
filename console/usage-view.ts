import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { dataTable } from './data-table';
import { callJson, type WhoAmI } from './api';
import { BarChart } from './bar-chart';
import { keyHintText, timeOf } from './format';

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
  /** To within a minute: the server writes a key's last use at most once a minute. */
  lastUsedAt?: string;
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
    dataTable(
      'Credits by day',
      // The ledger's days are UTC days, as the usage routes' months are UTC months.
      ['Day (UTC)', 'Credits'],
      report.days.filter((day) => day.credits > 0).map((day) => [day.day, day.credits]),
      { empty: 'Nothing yet.', idPrefix: 'usage-' },
    ),
    dataTable(
      'Credits by API key',
      ['Key', 'Credits'],
      report.byKey.map((row) => [
        row.apiKey === 'unknown' ? 'unknown' : h('code', null, keyHintText(row.apiKey)),
        row.credits,
      ]),
      { empty: 'Nothing yet.', idPrefix: 'usage-' },
    ),
    dataTable(
      'Credits by route',
      ['Route', 'Credits'],
      report.byRoute.map((row) => [row.route, row.credits]),
      { empty: 'Nothing yet.', idPrefix: 'usage-' },
    ),
    who.admin
      ? dataTable(
          'Credits by team',
          ['Team', 'Credits'],
          report.byTeam.map((row) => [row.teamId, row.credits]),
          { empty: 'Nothing yet.', idPrefix: 'usage-' },
        )
      : null,
    keys === null
      ? null
      : dataTable(
          'API keys',
          ['Label', 'Key', 'Team', 'Created', 'Revoked', 'Last used'],
          keys.map((key) => [
            key.label,
            h('code', { 'data-key-id': key.keyId }, keyHintText(key.hint)),
            key.teamId,
            timeOf(key.createdAt),
            timeOf(key.revokedAt),
            timeOf(key.lastUsedAt, 'never'),
          ]),
          { empty: 'Nothing yet.', idPrefix: 'usage-' },
        ),
  );
}
