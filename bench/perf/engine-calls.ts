import { z } from 'zod';
import type { TabhiveProcess } from './tabhive-process';

const BrowserCounters = z.array(
  z.object({
    id: z.string(),
    kind: z.enum(['launched', 'donated']),
    /** Page tasks the browser finished. */
    tasks: z.number(),
    /** Extension API calls (chrome.* on the browser's main thread) those tasks made. */
    engineCalls: z.number(),
  }),
);
/**
 * `GET /admin/v1/browsers`: what each connected browser has done since it connected. The list is
 * asked for as `browsers`; the server answers it as `data`, as its other admin routes do. Both
 * are read.
 */
const BrowsersAnswer = z.union([
  z.object({ success: z.literal(true), browsers: BrowserCounters }),
  z.object({ success: z.literal(true), data: BrowserCounters }),
]);
type Counters = Map<string, { tasks: number; engineCalls: number }>;

export type EngineCallsMeasure =
  { calls: number; tasks: number; callsPerTask: number } | { unavailable: string };

async function readCounters(tabhive: TabhiveProcess, adminApiKey: string): Promise<Counters | string> {
  const response = await fetch(`${tabhive.url}/admin/v1/browsers`, {
    headers: { authorization: `Bearer ${adminApiKey}` },
  });
  if (response.status === 404) return 'GET /admin/v1/browsers answered 404, not built yet';
  if (!response.ok) return `GET /admin/v1/browsers answered ${response.status}`;
  const answer = BrowsersAnswer.safeParse(await response.json().catch(() => undefined));
  if (!answer.success) return `GET /admin/v1/browsers answered an unexpected body`;
  const browsers = 'browsers' in answer.data ? answer.data.browsers : answer.data.data;
  return new Map(browsers.map(({ id, tasks, engineCalls }) => [id, { tasks, engineCalls }]));
}

/**
 * Extension API calls per page task over `work`: the browsers' counters before and after. A
 * browser that connected in between counts from zero. When the server does not answer the
 * counters, says why instead of failing the bench.
 */
export async function measureEngineCalls(
  tabhive: TabhiveProcess,
  adminApiKey: string,
  work: () => Promise<unknown>,
): Promise<EngineCallsMeasure> {
  const before = await readCounters(tabhive, adminApiKey);
  if (typeof before === 'string') return { unavailable: before };
  await work();
  const after = await readCounters(tabhive, adminApiKey);
  if (typeof after === 'string') return { unavailable: after };
  let calls = 0;
  let tasks = 0;
  for (const [id, now] of after) {
    calls += now.engineCalls - (before.get(id)?.engineCalls ?? 0);
    tasks += now.tasks - (before.get(id)?.tasks ?? 0);
  }
  if (tasks <= 0) return { unavailable: 'the browsers counted no finished task' };
  return { calls, tasks, callsPerTask: calls / tasks };
}
