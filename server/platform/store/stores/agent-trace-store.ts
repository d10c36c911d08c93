import type { AgentTraceEvent } from '../../../../shared/api/v2/agent-trace';
import type { Collection, Database, StoredDocument } from '../database';
import { RESULT_RETENTION_MS } from './result-store';

/** One trace event of an agent or deep research run, as stored. */
export interface StoredTraceEvent extends StoredDocument {
  /** `<runId>:<seq, zero-padded>`: an event is written once. */
  runId: string;
  teamId: string;
  flavor: 'agent' | 'research';
  seq: number;
  /** The model turn it belongs to (deep research's `depth`); 0 before the first. */
  step: number;
  event: AgentTraceEvent;
  at: Date;
  expiresAt: Date;
}

/**
 * Agent runs' traces, one document per event, kept as long as the jobs. The first event of each
 * run (`run.started`, seq 0) also lists the team's runs, newest first (`GET /v2/agent`).
 */
export function createAgentTraceStore(database: Database) {
  const events: Collection<StoredTraceEvent> = database.collection('agent_trace_events');

  return {
    async ensureIndexes() {
      await events.createIndex({ name: 'run_seq', keys: { runId: 1, seq: 1 } });
      await events.createIndex({ name: 'team_runs', keys: { teamId: 1, flavor: 1, seq: 1, at: -1 } });
      await events.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async append(entry: Omit<StoredTraceEvent, '_id' | 'at' | 'expiresAt'>, now = new Date()): Promise<void> {
      await events.insertOne({
        ...entry,
        _id: `${entry.runId}:${String(entry.seq).padStart(6, '0')}`,
        at: now,
        expiresAt: new Date(now.getTime() + RESULT_RETENTION_MS),
      });
    },

    /** The run's events in order. */
    list: (runId: string) => events.find({ runId }, { sort: { seq: 1 } }),

    /** The team's runs of one flavor started before `before`, newest first: their first events. */
    runs: (teamId: string, flavor: 'agent' | 'research', before: Date, limit: number) =>
      events.find({ teamId, flavor, seq: 0, at: { $lt: before } }, { sort: { at: -1 }, limit }),

    async purgeExpired(now = new Date()) {
      return (await events.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type AgentTraceStore = ReturnType<typeof createAgentTraceStore>;
