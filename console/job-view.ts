import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { callJson, type WhoAmI } from './api';
import type { ConsoleJob, ConsolePage, ScrapeDocument } from './console-types';
import { DocumentViewer } from './document-viewer';
import { downloadJsonl } from './download-jsonl';
import { JobProgress } from './job-progress';
import { href } from './use-hash-route';
import { duration, useLiveJob } from './use-live-job';

interface JobError {
  id: string;
  url: string;
  error: string;
  code?: string;
  timestamp: string;
}

/** One job: live counts, its pages with their state, its errors, cancel, download, and any page's result. */
export function JobView({ id, who }: { id: string; who: WhoAmI }) {
  const [loaded, setLoaded] = useState<{ job: ConsoleJob; pages: ConsolePage[] } | null>(null);
  const [problem, setProblem] = useState('');
  const load = () =>
    callJson<{ data: { job: ConsoleJob; pages: ConsolePage[] } }>(
      `/console/api/jobs/${encodeURIComponent(id)}`,
    ).then(
      (body) => setLoaded(body.data),
      (err: unknown) => setProblem(err instanceof Error ? err.message : String(err)),
    );
  useEffect(() => {
    setLoaded(null);
    setProblem('');
    void load();
  }, [id]);

  if (loaded === null)
    return h(
      'section',
      null,
      h('p', null, h('a', { href: href('jobs') }, '← Jobs')),
      problem === ''
        ? h('p', { role: 'status' }, 'Loading the job…')
        : h('p', { class: 'error', role: 'alert' }, problem),
    );
  return h(JobDetail, { key: id, initial: loaded.job, pages: loaded.pages, who, reload: load });
}

function JobDetail({
  initial,
  pages,
  who,
  reload,
}: {
  initial: ConsoleJob;
  pages: ConsolePage[];
  who: WhoAmI;
  reload: () => Promise<void>;
}) {
  const { job, live } = useLiveJob(initial, who.admin);
  const [jobErrors, setJobErrors] = useState<JobError[] | null>(null);
  const [open, setOpen] = useState<{ url: string; document: ScrapeDocument | null; problem: string } | null>(
    null,
  );
  const [notice, setNotice] = useState('');
  const resultHeading = useRef<HTMLHeadingElement>(null);
  /** Counts the Open clicks: each one brings the result into view, the same page again too. */
  const [opened, setOpened] = useState(0);
  const pageJob = job.kind === 'crawl' || job.kind === 'batch';

  // The result opens below the pages, which may fill several screens: bring it into view, and
  // move the focus to it, as a keyboard or screen reader user would otherwise not find it.
  useEffect(() => {
    const heading = resultHeading.current;
    if (open === null || heading === null) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  }, [opened]);

  // The page list and errors are read again when the job's counts move (the socket or the poll).
  useEffect(() => {
    if (job.completed + job.failed !== initial.completed + initial.failed || job.status !== initial.status)
      void reload();
  }, [job.completed, job.failed, job.status]);
  useEffect(() => {
    if (!pageJob || who.admin) return;
    callJson<{ errors: JobError[] }>(`/v2/crawl/${encodeURIComponent(job.id)}/errors`).then(
      (body) => setJobErrors(body.errors),
      () => setJobErrors(null),
    );
  }, [job.id, job.failed, job.status]);

  const errorsShown: JobError[] =
    jobErrors ??
    pages
      .filter((page) => page.state === 'failed')
      .map((page) => ({
        id: page.id,
        url: page.url,
        error: page.error ?? 'failed',
        ...(page.code === null ? {} : { code: page.code }),
        timestamp: page.updatedAt,
      }));

  const cancel = async () => {
    if (!confirm('Cancel this job? Pages not started yet will not run.')) return;
    try {
      await callJson(`/console/api/jobs/${encodeURIComponent(job.id)}/cancel`, { method: 'POST' });
      setNotice('The job was cancelled.');
      await reload();
    } catch (err) {
      setNotice(`Could not cancel: ${String(err)}`);
    }
  };
  const openPage = async (url: string) => {
    setOpen({ url, document: null, problem: '' });
    setOpened((count) => count + 1);
    try {
      const body = await callJson<{ data: ScrapeDocument }>(
        `/console/api/jobs/${encodeURIComponent(job.id)}/document?url=${encodeURIComponent(url)}`,
      );
      setOpen({ url, document: body.data, problem: '' });
    } catch (err) {
      setOpen({ url, document: null, problem: String(err) });
    }
  };

  return h(
    'section',
    { 'aria-labelledby': 'job-title', class: 'job' },
    h('p', null, h('a', { href: href('jobs') }, '← Jobs')),
    h('h1', { id: 'job-title' }, `${job.kind} `, h('span', { class: 'url' }, job.url ?? job.id)),
    h(
      'dl',
      { class: 'facts' },
      fact(
        'Status',
        h('span', { class: `status status-${job.status}`, 'data-testid': 'job-status' }, job.status),
      ),
      fact('Pages', `${job.completed} done, ${job.failed} failed of ${job.total + job.failed}`),
      fact('Credits', String(job.creditsUsed)),
      fact('Duration', duration(job)),
      who.admin ? fact('Team', job.teamId) : null,
      fact('Job id', h('code', null, job.id)),
      fact('Updates', live ? 'live (status socket)' : job.status === 'scraping' ? 'polling' : 'finished'),
    ),
    pageJob ? h(JobProgress, { job, label: 'Job progress' }) : null,
    job.error === null ? null : h('p', { class: 'error' }, job.error),
    h(
      'div',
      { class: 'actions' },
      job.status === 'scraping' && pageJob
        ? h('button', { type: 'button', onClick: cancel }, 'Cancel job')
        : null,
      pageJob
        ? h(
            'button',
            {
              type: 'button',
              onClick: () => void downloadJsonl(job.id).catch((err: unknown) => setNotice(String(err))),
            },
            'Download results (JSONL)',
          )
        : null,
    ),
    h('p', { role: 'status' }, notice),
    errorsShown.length === 0
      ? null
      : h(
          'section',
          { 'aria-labelledby': 'errors-title', class: 'errors' },
          h('h2', { id: 'errors-title' }, `Errors (${errorsShown.length})`),
          h(
            'ul',
            null,
            errorsShown.map((error) =>
              h(
                'li',
                { key: error.id, 'data-error-url': error.url },
                h('span', { class: 'url' }, error.url),
                ': ',
                error.code === undefined ? null : h('code', null, error.code),
                ' ',
                error.error,
              ),
            ),
          ),
        ),
    pageJob ? h(PagesTable, { pages, onOpen: (url: string) => void openPage(url) }) : null,
    open === null
      ? null
      : h(
          'section',
          { 'aria-labelledby': 'page-result-title', class: 'page-result' },
          h(
            'h2',
            { id: 'page-result-title', ref: resultHeading, tabIndex: -1 },
            'Result of ',
            h('span', { class: 'url' }, open.url),
          ),
          open.problem !== ''
            ? h('p', { class: 'error', role: 'alert' }, open.problem)
            : open.document === null
              ? h('p', { role: 'status' }, 'Loading…')
              : h(DocumentViewer, { document: open.document, idPrefix: 'page' }),
        ),
  );
}

const fact = (name: string, value: unknown) => [h('dt', null, name), h('dd', null, value as string)];

function PagesTable({ pages, onOpen }: { pages: ConsolePage[]; onOpen: (url: string) => void }) {
  return h(
    'section',
    { 'aria-labelledby': 'pages-title' },
    h('h2', { id: 'pages-title' }, `Pages (${pages.length})`),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'pages' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['URL', 'State', 'Attempts', 'Error', ''].map((name) =>
              h(
                'th',
                {
                  scope: 'col',
                  // Waiting for a free tab is no attempt (the job runner does not count it).
                  ...(name === 'Attempts' ? { title: 'Times the page was fetched or run in a browser' } : {}),
                },
                name,
              ),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          pages.map((page) =>
            h(
              'tr',
              { key: page.id, 'data-page-url': page.url, 'data-state': page.state },
              h('td', { class: 'url' }, page.url),
              h('td', null, h('span', { class: `state state-${page.state}` }, page.state)),
              h('td', { class: 'attempts' }, String(page.attempts)),
              h('td', { class: 'page-error' }, page.error ?? ''),
              h(
                'td',
                null,
                page.state === 'done'
                  ? h(
                      'button',
                      {
                        type: 'button',
                        onClick: () => onOpen(page.url),
                        'aria-label': `Open the result of ${page.url}`,
                      },
                      'Open',
                    )
                  : null,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
