import type { Job, StoredTraceEvent } from '../../platform/store';
import type { AgentOutput, AgentSource, AgentSpec } from './agent-spec';
import { CANCELLED_ERROR, isoSeconds, wireStatus } from './agent-status';

export interface ResearchActivity {
  type: string;
  status: 'processing' | 'complete' | 'error';
  message: string;
  timestamp: string;
  depth: number;
}

const TOOL_ACTIVITY: Record<string, string> = { search: 'search', scrape: 'extract', map: 'search' };

const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** One activity per step of the trace worth showing a person: tool calls, progress, the end. */
function activityOf(stored: StoredTraceEvent): ResearchActivity | undefined {
  const { event, step } = stored;
  const base = { timestamp: event.occurredAt, depth: step };
  switch (event.type) {
    case 'tool_call.finished': {
      const result = event.result;
      const problem = str(field(result, 'error')) ?? str(field(result, 'reason'));
      const target = str(field(result, 'query')) ?? str(field(result, 'url')) ?? '';
      const verb =
        event.toolName === 'search' ? 'Searched for' : event.toolName === 'map' ? 'Mapped' : 'Read';
      return {
        ...base,
        type: TOOL_ACTIVITY[event.toolName] ?? event.toolName,
        status: problem === undefined ? 'complete' : 'error',
        message: problem === undefined ? `${verb} ${target}` : `${verb} ${target} failed: ${problem}`,
      };
    }
    case 'progress.reported':
      return {
        ...base,
        type: event.phase === 'finalizing' ? 'synthesis' : 'reasoning',
        status: 'processing',
        message: event.message,
      };
    case 'reasoning.summary':
      return { ...base, type: 'thought', status: 'complete', message: event.text };
    case 'run.finished':
      return {
        ...base,
        type: 'synthesis',
        status: event.outcome === 'failed' || event.outcome === 'cancelled' ? 'error' : 'complete',
        message: event.error?.message ?? 'Research complete.',
      };
    default:
      return undefined;
  }
}

/** The pages read so far, from the trace (while the run works; its output lists them at the end). */
function sourcesOf(events: readonly StoredTraceEvent[]): AgentSource[] {
  const seen = new Map<string, AgentSource>();
  for (const { event } of events) {
    if (event.type !== 'tool_call.finished' || event.toolName !== 'scrape') continue;
    const url = str(field(event.result, 'url'));
    const status = field(event.result, 'statusCode');
    if (url === undefined || typeof status !== 'number' || status >= 400 || seen.has(url)) continue;
    seen.set(url, {
      url,
      title: str(field(event.result, 'title')) ?? '',
      description: str(field(event.result, 'description')) ?? '',
    });
  }
  return [...seen.values()];
}

/**
 * `GET /v1/deep-research/:id` in the shape both clients read: the activities and sources at the
 * top (the polling loops' callbacks) and in `data` (the typed response), `finalAnalysis` (and
 * `json` when asked) once completed, the depth reached and the bound.
 */
export function researchStatusBody(job: Job, events: readonly StoredTraceEvent[]) {
  const spec = job.request as AgentSpec;
  const output = job.output as AgentOutput | undefined;
  const activities = events.map(activityOf).filter((activity) => activity !== undefined);
  const sources = output?.sources ?? sourcesOf(events);
  const currentDepth = events.reduce((depth, event) => Math.max(depth, event.step), 0);
  const done = job.status === 'completed' && output !== undefined;
  return {
    success: true,
    id: job._id,
    status: wireStatus(job),
    ...(job.status === 'cancelled'
      ? { error: CANCELLED_ERROR }
      : job.error === undefined
        ? {}
        : { error: job.error }),
    data: {
      finalAnalysis: done ? (output.finalAnalysis ?? '') : '',
      activities,
      sources,
      ...(done && output.json !== undefined ? { json: output.json } : {}),
    },
    activities,
    sources,
    summaries: [] as string[],
    currentDepth,
    maxDepth: spec.research?.maxDepth ?? spec.maxSteps,
    totalUrls: sources.length,
    expiresAt: isoSeconds(job.expiresAt),
    creditsUsed: Math.max(0, Math.round(job.creditsUsed)),
    ...(output !== undefined && output.warnings.length > 0 ? { warnings: output.warnings } : {}),
  };
}
