/**
 * The agent trace's events as firecrawl-js (AgentTraceEvent) and firecrawl-py (AgentTraceEvent,
 * a discriminated union with required fields) read them: schemaVersion 1, one sequence per run.
 * Tabhive writes the subset its loop produces.
 */
export interface AgentTraceIdentity {
  id: string;
  role: 'orchestrator' | 'subagent' | 'browser' | 'system';
  name: string;
}

export interface AgentTraceError {
  code: 'cancelled' | 'credit_limit_reached' | 'parent_finished' | 'refused' | 'internal';
  source: 'agent' | 'tool' | 'billing' | 'system';
  retryable: boolean;
  message: string;
}

export type RunOutcome = 'succeeded' | 'failed' | 'cancelled' | 'refused' | 'credit_limit_reached';

/** What each event type adds to the common fields. */
export type AgentTraceBody =
  | { type: 'run.started' }
  | { type: 'run.cancel_requested'; reason: 'user' }
  | { type: 'run.finished'; outcome: RunOutcome; error: AgentTraceError | null }
  | { type: 'agent.started' }
  | {
      type: 'agent.finished';
      outcome: Exclude<RunOutcome, 'credit_limit_reached'>;
      durationMs: number;
      error: AgentTraceError | null;
    }
  | { type: 'progress.reported'; phase: 'planning' | 'working' | 'finalizing'; message: string }
  | { type: 'reasoning.summary'; text: string }
  | { type: 'tool_call.started'; toolCallId: string; toolName: string; parameters: unknown }
  | { type: 'tool_call.finished'; toolCallId: string; toolName: string; result: unknown }
  | {
      type: 'artifact.updated';
      artifact: {
        kind: 'json' | 'markdown' | 'text';
        artifactId: string;
        snapshotId: string;
        change: 'init' | 'update';
      };
    }
  | { type: 'error.occurred'; error: AgentTraceError };

export type AgentTraceEvent = AgentTraceBody & {
  schemaVersion: 1;
  eventId: string;
  runId: string;
  occurredAt: string;
  producerSequence: number;
  agent: AgentTraceIdentity;
};
