import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/bot-detection', import.meta.url));
/** BotD's browser bundle, as the npm package ships it (an ES module without imports). */
const BOTD_BUNDLE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@fingerprintjs/botd')),
  'botd.esm.js',
);

/**
 * High-entropy client hints the detector page asks for: Chromium then sends them on the page's
 * later requests (the /headers.json fetch), where the checks compare them with
 * getHighEntropyValues.
 */
const ACCEPT_CH =
  'Sec-CH-UA-Full-Version-List, Sec-CH-UA-Platform-Version, Sec-CH-UA-Arch, Sec-CH-UA-Bitness';

/** What the detector page found in one run (test/fixtures/bot-detection/checks.js). */
export interface DetectorReport {
  run: string;
  botd: { bot: boolean; botKind?: string } | { error: string };
  flagged: string[];
  checks: Record<string, { flagged: boolean; detail: unknown }>;
  notes: Record<string, unknown>;
}

/**
 * A local site with one detector page (/detector.html): BotD and the checks of
 * test/fixtures/bot-detection/checks.js, which post their report back (/report). Each run is
 * named by the `run` query parameter; the headers the page's document request carried are kept
 * per run and echoed to the page (/headers.json), so the page can compare them with what it sees.
 */
export async function startBotDetectionSite() {
  const documentHeaders = new Map<string, IncomingHttpHeaders>();
  const reports = new Map<string, DetectorReport>();
  const waiting = new Map<string, Array<(report: DetectorReport) => void>>();

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://detector');
    const run = url.searchParams.get('run') ?? 'default';
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      response.end(body);
    };
    void (async () => {
      switch (url.pathname) {
        case '/detector.html':
          documentHeaders.set(run, request.headers);
          send(200, 'text/html; charset=utf-8', await readFile(path.join(FIXTURE_DIR, 'detector.html')), {
            'accept-ch': ACCEPT_CH,
          });
          return;
        case '/checks.js':
          send(200, 'text/javascript', await readFile(path.join(FIXTURE_DIR, 'checks.js')));
          return;
        case '/botd.esm.js':
          send(200, 'text/javascript', await readFile(BOTD_BUNDLE));
          return;
        case '/headers.json':
          send(
            200,
            'application/json',
            JSON.stringify({ document: documentHeaders.get(run) ?? {}, fetch: request.headers }),
          );
          return;
        case '/report': {
          const chunks: Buffer[] = [];
          for await (const chunk of request) chunks.push(chunk as Buffer);
          const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as DetectorReport;
          reports.set(run, report);
          for (const resolve of waiting.get(run) ?? []) resolve(report);
          waiting.delete(run);
          send(204, 'text/plain', '');
          return;
        }
        default:
          send(404, 'text/plain', 'not found');
      }
    })().catch((error: unknown) => send(500, 'text/plain', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    /** The detector page's URL for the run `run`, with extra query parameters for the checks. */
    url: (run: string, query: Record<string, string> = {}) =>
      `${origin}/detector.html?${new URLSearchParams({ run, ...query }).toString()}`,
    /** The document request's headers of a run. */
    headersOf: (run: string) => documentHeaders.get(run),
    /** The report of a run, once the page has sent it. */
    report(run: string, timeoutMs = 20_000): Promise<DetectorReport> {
      const done = reports.get(run);
      if (done !== undefined) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no detector report for run ${run}`)), timeoutMs);
        waiting.set(run, [
          ...(waiting.get(run) ?? []),
          (report) => {
            clearTimeout(timer);
            resolve(report);
          },
        ]);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
