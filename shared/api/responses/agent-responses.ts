import { z } from 'zod';
import { JsonValue } from '../json-value';

const Status = z.enum(['processing', 'completed', 'failed']);

/** `POST /v2/agent`: the run's id; every run is a one-turn thread of its own. */
export const AgentStarted = z.object({
  success: z.literal(true),
  id: z.string(),
  threadId: z.string(),
  threadTurn: z.int(),
});

/** `GET /v2/agent/{id}`. A cancelled run reads `failed` with `stopReason: "cancelled"`. */
export const AgentStatus = z.object({
  success: z.literal(true),
  id: z.string(),
  status: Status,
  /** The answer, valid against the request's `schema` when it had one. */
  data: JsonValue.optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  stopReason: z.string().optional(),
  model: z.string(),
  effort: z.string().optional(),
  mode: z.string(),
  expiresAt: z.string(),
  creditsUsed: z.number(),
  threadId: z.string(),
  threadTurn: z.int(),
  warnings: z.array(z.string()).optional(),
});

/** `GET /v2/agent`: the team's runs, newest first; `next` pages on. */
export const AgentList = z.object({
  success: z.literal(true),
  agents: z.array(z.record(z.string(), z.unknown())),
  next: z.string().optional(),
});

/** `DELETE /v2/agent/{id}`. */
export const AgentCancelled = z.object({ success: z.literal(true), status: z.literal('cancelled') });

/** `GET /v2/agent/{id}/trace`: every event of the run, tool calls with their inputs and results. */
export const AgentTraceResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  events: z.array(z.record(z.string(), z.unknown())),
  creditsUsed: z.number(),
  activeBrowserSessions: z.array(z.unknown()).optional(),
});

/** `GET /v2/agent/threads/{id}`: the thread's runs (one per thread). */
export const AgentThreadResponse = z.object({ success: z.literal(true) }).catchall(z.unknown());

/** `GET /v2/agent/{id}/snapshots/{snapshotId}`: an artifact's content. */
export const AgentSnapshotResponse = z.object({ success: z.literal(true) }).catchall(z.unknown());

/** `POST /v1/deep-research`. */
export const DeepResearchStarted = z.object({ success: z.literal(true), id: z.string() });

const Activity = z.object({
  type: z.string(),
  status: z.string(),
  message: z.string(),
  timestamp: z.string(),
  depth: z.number(),
});
const Source = z.record(z.string(), z.unknown());

/** `GET /v1/deep-research/{id}`: activities and sources as they come, the analysis at the end. */
export const DeepResearchStatus = z.object({
  success: z.literal(true),
  id: z.string(),
  status: Status,
  error: z.string().optional(),
  data: z.object({
    finalAnalysis: z.string(),
    activities: z.array(Activity),
    sources: z.array(Source),
    json: JsonValue.optional(),
  }),
  activities: z.array(Activity),
  sources: z.array(Source),
  summaries: z.array(z.string()),
  currentDepth: z.number(),
  maxDepth: z.number(),
  totalUrls: z.number(),
  expiresAt: z.string(),
  creditsUsed: z.number(),
  warnings: z.array(z.string()).optional(),
});
