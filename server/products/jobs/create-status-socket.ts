import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Keyring } from '../../platform/auth';
import type { Log } from '../../platform/log';
import type { Stores } from '../../platform/store';
import type { JobService } from './create-job-service';

/** How often a socket looks for newly completed pages (Firecrawl: about once a second). */
const POLL_MS = 500;
const PAGE = 100;
const STATUS_SOCKET_PATH = /^\/v[12]\/(crawl|batch\/scrape)\/([0-9a-f-]{36})$/i;

/** Whether an upgrade request is for a job's status stream. */
export const isStatusSocketPath = (pathname: string) => STATUS_SOCKET_PATH.test(pathname);

/**
 * The job status WebSocket (docs/wire-contract.md §7.7) on `/v{1,2}/crawl/:id` and `/v{1,2}/batch/scrape/:id`:
 * `catchup` with everything so far, a `document` per page completed afterwards, and `done` as the
 * close reason of a normal close. The API key comes in `Authorization` or as the subprotocol,
 * which `ws` echoes (it picks the first one offered), as the SDK watchers require.
 */
export function createStatusSocket({
  keyring,
  jobs,
  stores,
  log,
}: {
  keyring: Keyring;
  jobs: JobService;
  stores: Stores;
  log: Log;
}) {
  const server = new WebSocketServer({ noServer: true });

  /**
   * The last message: the job's final counts, which watchers report as their last snapshot (they
   * said "completed 0/0" when it carried none). The documents went before, so it carries no
   * documents of its own. A v2 job that failed or was cancelled ends with a status snapshot
   * instead of `done`, which both v2 watchers would report as completed; v1's Python watcher knows
   * only `done`.
   */
  const finalMessage = async (teamId: string, id: string, pathname: string) => {
    const final = await jobs.status(teamId, id, { skip: 0, limit: 1 });
    const counts = {
      status: final?.status ?? 'failed',
      completed: final?.completed ?? 0,
      total: final?.total ?? 0,
      creditsUsed: final?.creditsUsed ?? 0,
      expiresAt: final?.expiresAt ?? null,
      next: null,
      data: [],
    };
    const type = counts.status === 'completed' || !pathname.startsWith('/v2/') ? 'done' : 'status';
    return { type, data: counts };
  };

  /** `doneMessage`: also send the final message before the close reason that says `done`. */
  const stream = async (
    socket: WebSocket,
    teamId: string,
    id: string,
    doneMessage: boolean,
    pathname: string,
  ) => {
    const first = await jobs.status(teamId, id, { skip: 0, limit: Number.MAX_SAFE_INTEGER });
    if (first === undefined) {
      // Firecrawl's close code for no such job (docs/wire-contract.md §7.7); another team's job is answered
      // the same way (Firecrawl says 3003 Forbidden), so its existence is not revealed.
      socket.close(1008, JSON.stringify({ type: 'error', error: 'Job not found' }));
      return;
    }
    const { nextSkip: _next, ...catchup } = first;
    socket.send(JSON.stringify({ type: 'catchup', data: { success: true, ...catchup } }));
    let sent = first.data.length;
    let status = first.status;
    while (socket.readyState === socket.OPEN) {
      if (status !== 'scraping') {
        if (doneMessage) socket.send(JSON.stringify(await finalMessage(teamId, id, pathname)));
        socket.close(1000, JSON.stringify({ type: 'done' }));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const job = await stores.jobs.get(id);
      status = job?.status ?? 'failed';
      for (;;) {
        const batch = await stores.results.listForJob(id, { skip: sent, limit: PAGE });
        for (const result of batch) socket.send(JSON.stringify({ type: 'document', data: result.document }));
        sent += batch.length;
        if (batch.length < PAGE) break;
      }
    }
  };

  return {
    async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      const id = STATUS_SOCKET_PATH.exec(pathname)?.[2] ?? '';
      const header = request.headers.authorization;
      const key =
        header !== undefined
          ? header.trim().split(/\s+/)[1]
          : request.headers['sec-websocket-protocol']?.split(',')[0]?.trim();
      const team = key === undefined || key === '' ? undefined : await keyring.findTeam(key);
      server.handleUpgrade(request, socket, head, (ws) => {
        if (team === undefined) {
          ws.close(3000, JSON.stringify({ type: 'error', error: 'Unauthorized' }));
          return;
        }
        // v2 watchers read `done` as a message. On v1, JS's watcher reads the close reason only (and
        // would report a message as a second `done`), while Python's reads messages only: they
        // differ in how they send the key, JS as the subprotocol, Python in Authorization.
        const doneMessage = pathname.startsWith('/v2/') || header !== undefined;
        stream(ws, team.id, id, doneMessage, pathname).catch((err: unknown) => {
          log.warn('status socket failed', { job: id, error: String(err) });
          if (ws.readyState === ws.OPEN)
            ws.close(1011, JSON.stringify({ type: 'error', error: 'Internal error' }));
        });
      });
    },
    close: () => {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}

export type StatusSocket = ReturnType<typeof createStatusSocket>;
