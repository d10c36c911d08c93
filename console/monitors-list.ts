import { useEffect, useState } from 'preact/hooks';
import { callJson } from './api';
import { dataTable } from './data-table';
import { timeOf } from './format';

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
  return dataTable(
    `Monitors (${monitors.length})`,
    ['Name', 'Status', 'Schedule', 'Last run', 'Next run', 'Credits / month'],
    monitors.map((monitor) => [
      monitor.name,
      monitor.status,
      monitor.schedule.text ?? `${monitor.schedule.cron} (${monitor.schedule.timezone})`,
      timeOf(monitor.lastRunAt),
      timeOf(monitor.nextRunAt),
      String(monitor.estimatedCreditsPerMonth),
    ]),
  );
}
