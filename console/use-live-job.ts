import { useEffect, useRef, useState } from 'preact/hooks';
import { callJson } from './api';
import type { ConsoleJob } from './console-types';
import { readKey } from './session-key';

/** Failed pages send no socket message: the counts are also read this often while a job runs. */
const FALLBACK_POLL_MS = 2_000;
/** At most one count read per this many ms however fast documents arrive. */
const REFRESH_EVERY_MS = 300;

const runsPages = (job: ConsoleJob) => job.kind === 'crawl' || job.kind === 'batch';

/**
 * A job's counts, kept live while it runs. A team key opens the job's status WebSocket (the key as
 * its subprotocol, as the SDK watchers do): each page it reports refreshes the counts, and its close
 * gives the final ones. The admin key has no team, so the socket would not know it: it polls.
 */
export function useLiveJob(initial: ConsoleJob, admin: boolean): { job: ConsoleJob; live: boolean } {
  const [job, setJob] = useState(initial);
  const [live, setLive] = useState(false);
  const pending = useRef<number | undefined>(undefined);

  useEffect(() => setJob(initial), [initial]);

  useEffect(() => {
    if (initial.status !== 'scraping' || !runsPages(initial)) return;
    let stopped = false;
    const refresh = async () => {
      try {
        const body = await callJson<{ data: { job: ConsoleJob } }>(
          `/console/api/jobs/${encodeURIComponent(initial.id)}`,
        );
        if (!stopped) setJob(body.data.job);
        return body.data.job;
      } catch {
        return undefined;
      }
    };
    const soon = () => {
      if (pending.current !== undefined) return;
      pending.current = window.setTimeout(() => {
        pending.current = undefined;
        void refresh();
      }, REFRESH_EVERY_MS);
    };
    const poll = window.setInterval(() => {
      void refresh().then((latest) => {
        if (latest !== undefined && latest.status !== 'scraping') window.clearInterval(poll);
      });
    }, FALLBACK_POLL_MS);

    let socket: WebSocket | undefined;
    const key = readKey();
    if (!admin && key !== null) {
      const url = new URL(
        `/v2/${initial.kind === 'batch' ? 'batch/scrape' : 'crawl'}/${initial.id}`,
        location.href,
      );
      url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(url.href, [key]);
      socket.onopen = () => setLive(true);
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { type?: string; data?: Partial<ConsoleJob> };
        if (message.type === 'catchup' && message.data !== undefined) {
          const { completed, total } = message.data;
          setJob((current) => ({
            ...current,
            completed: completed ?? current.completed,
            total: total ?? current.total,
          }));
        }
        soon();
      };
      socket.onclose = () => {
        setLive(false);
        void refresh();
      };
    }
    return () => {
      stopped = true;
      window.clearInterval(poll);
      if (pending.current !== undefined) window.clearTimeout(pending.current);
      socket?.close();
    };
  }, [initial.id, initial.status, admin]);

  return { job, live };
}

/** Share of the job's pages that are finished (done or failed), 0–100. */
export function percentDone(job: ConsoleJob): number {
  if (job.status === 'completed') return 100;
  const all = job.total + job.failed;
  return all === 0 ? 0 : Math.floor(((job.completed + job.failed) / all) * 100);
}

export function duration(job: ConsoleJob, now = Date.now()): string {
  const end = job.status === 'scraping' ? now : Date.parse(job.updatedAt);
  const seconds = Math.max(0, Math.round((end - Date.parse(job.createdAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
