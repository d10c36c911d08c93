import { randomUUID } from 'node:crypto';
import type { AgentTraceBody, AgentTraceEvent } from '../../../shared/api/v2/agent-trace';
import type { Log } from '../../platform/log';
import type { AgentTraceStore } from '../../platform/store';

/**
 * Writes one run's trace in order. A write that fails (a database outage) is logged and the run
 * goes on: the trace is a record of the work, not a reason to stop it.
 */
export function createTraceRecorder({
  store,
  runId,
  teamId,
  flavor,
  log,
  firstSeq = 0,
}: {
  store: AgentTraceStore;
  runId: string;
  teamId: string;
  flavor: 'agent' | 'research';
  log: Log;
  /** The next sequence number (the service writes `run.started` before the run is launched). */
  firstSeq?: number;
}) {
  let seq = firstSeq;
  let step = 0;
  return {
    /** The model turn the next events belong to. */
    setStep(turn: number) {
      step = turn;
    },
    async emit(body: AgentTraceBody): Promise<AgentTraceEvent> {
      const event: AgentTraceEvent = {
        ...body,
        schemaVersion: 1,
        eventId: randomUUID(),
        runId,
        occurredAt: new Date().toISOString(),
        producerSequence: seq,
        agent: {
          id: `${runId}:orchestrator`,
          role: 'orchestrator',
          name: flavor === 'agent' ? 'agent' : 'deep-research',
        },
      };
      const current = seq++;
      try {
        await store.append({ runId, teamId, flavor, seq: current, step, event });
      } catch (err) {
        log.warn('could not write an agent trace event', { runId, type: body.type, error: String(err) });
      }
      return event;
    },
  };
}

export type TraceRecorder = ReturnType<typeof createTraceRecorder>;
