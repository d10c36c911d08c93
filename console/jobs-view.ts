import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, callJson, type WhoAmI } from './api';
import type { ConsoleJob } from './console-types';
import { JobProgress } from './job-progress';
import { MonitorsList } from './monitors-list';
import { href } from './use-hash-route';
import { duration, useLiveJob } from './use-live-job';

/** Jobs of every kind, newest first, with live progress; a team key can start a crawl here. */
export function JobsView({ who }: { who: WhoAmI }) {
  const [jobs, setJobs] = useState<ConsoleJob[] | null>(null);
  const [problem, setProblem] = useState('');
  const load = () =>
    callJson<{ data: ConsoleJob[] }>('/console/api/jobs?limit=50').then(
      (body) => setJobs(body.data),
      (err: unknown) => setProblem(String(err)),
    );
  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), 5_000);
    return () => window.clearInterval(timer);
  }, []);

  return h(
    'section',
    { 'aria-labelledby': 'jobs-title' },
    h('h1', { id: 'jobs-title' }, 'Jobs'),
    who.admin ? null : h(StartCrawl, null),
    h('p', { class: 'error', role: 'alert' }, problem),
    jobs === null
      ? h('p', { role: 'status' }, 'Loading jobs…')
      : jobs.length === 0
        ? h('p', null, 'No jobs yet.')
        : h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              { class: 'jobs' },
              h('caption', { class: 'visually-hidden' }, 'Crawls, batches and other jobs, newest first'),
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ['Job', who.admin ? 'Team' : null, 'Status', 'Progress', 'Pages', 'Credits', 'Duration']
                    .filter((name) => name !== null)
                    .map((name) => h('th', { scope: 'col' }, name)),
                ),
              ),
              h(
                'tbody',
                null,
                jobs.map((job) => h(JobRow, { key: job.id, initial: job, admin: who.admin })),
              ),
            ),
          ),
    who.admin ? null : h(MonitorsList, null),
  );
}

function JobRow({ initial, admin }: { initial: ConsoleJob; admin: boolean }) {
  const { job } = useLiveJob(initial, admin);
  const name = `${job.kind} ${job.url ?? job.id}`;
  return h(
    'tr',
    { 'data-job-id': job.id },
    h(
      'td',
      null,
      h('a', { href: href('jobs', job.id) }, h('span', { class: 'kind' }, job.kind), ' ', job.url ?? job.id),
    ),
    admin ? h('td', null, job.teamId) : null,
    h('td', null, h('span', { class: `status status-${job.status}` }, job.status)),
    h('td', null, h(JobProgress, { job, label: `Progress of ${name}` })),
    h(
      'td',
      null,
      `${job.completed} done`,
      job.failed > 0 ? h('span', { class: 'failed' }, `, ${job.failed} failed`) : null,
    ),
    h('td', null, String(job.creditsUsed)),
    h('td', null, duration(job)),
  );
}

/** A crawl started from the console, through the API (`POST /v2/crawl`), as any client would. */
function StartCrawl() {
  const [url, setUrl] = useState('');
  const [limit, setLimit] = useState('10');
  const [problem, setProblem] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem('');
    try {
      const body = await callJson<{ id: string }>('/v2/crawl', {
        method: 'POST',
        body: { url: url.trim(), limit: Number(limit) },
      });
      location.hash = href('jobs', body.id);
    } catch (err) {
      setProblem(err instanceof ApiCallError ? err.message : String(err));
    }
  };
  return h(
    'form',
    { class: 'inline-form', onSubmit: submit, 'aria-labelledby': 'start-crawl-title' },
    h('h2', { id: 'start-crawl-title' }, 'Start a crawl'),
    h('label', { for: 'crawl-url' }, 'Start URL'),
    h('input', {
      id: 'crawl-url',
      type: 'url',
      required: true,
      placeholder: 'https://example.com/',
      value: url,
      onInput: (event: Event) => setUrl((event.currentTarget as HTMLInputElement).value),
    }),
    h('label', { for: 'crawl-limit' }, 'Page limit'),
    h('input', {
      id: 'crawl-limit',
      type: 'number',
      min: 1,
      max: 10000,
      value: limit,
      onInput: (event: Event) => setLimit((event.currentTarget as HTMLInputElement).value),
    }),
    h('button', { type: 'submit' }, 'Start crawl'),
    h('p', { class: 'error', role: 'alert' }, problem),
  );
}
