import type { AgentWebhook } from '../../../shared/api/v2/agent-request';

/** What an agent or deep research run was asked, as stored with its job (so any instance can read it). */
export interface AgentSpec {
  /** `agent` (v2) answers `data`; `research` (v1 deep research) answers a Markdown analysis. */
  flavor: 'agent' | 'research';
  prompt: string;
  /** Starting points; with `strict`, the only pages (and pages below them) the tools may touch. */
  urls: string[];
  strict: boolean;
  /** The caller's JSON Schema for the answer (passed guardSchema when the run was accepted). */
  schema?: unknown;
  mode: 'extract' | 'chat';
  maxCredits: number;
  /** Model turns that may call tools. */
  maxSteps: number;
  /** How long the tools may work (ms) before the final answer is asked for. */
  timeoutMs: number;
  /** Pages (scrape, interact) the run may read; deep research's `maxUrls`. */
  maxPages?: number | undefined;
  /** The model name the caller asked for (Firecrawl's), and the one that runs. */
  requestedModel?: string | undefined;
  model: string;
  effort?: 'low' | 'medium' | 'high' | undefined;
  origin: string;
  integration?: string | undefined;
  webhook?: AgentWebhook | undefined;
  /** Pages are screened for prompt injection before the model reads them (checkPromptInjection). */
  screensInjection?: boolean | undefined;
  /** Deep research: the final analysis's instructions and whether a JSON answer is asked for too. */
  research?: {
    maxDepth: number;
    analysisPrompt?: string | undefined;
    systemPrompt?: string | undefined;
    json: boolean;
    jsonPrompt?: string | undefined;
    jsonSystemPrompt?: string | undefined;
  };
}

/** A page the run read, for deep research's `sources`. */
export interface AgentSource {
  url: string;
  title: string;
  description: string;
}

/** Why the tools stopped: the model answered, or a limit did. */
export type StopReason = 'completed' | 'max_steps' | 'credit_limit_reached' | 'time_limit';

/** What a finished run answers. */
export interface AgentOutput {
  /** The agent's answer (the JSON value; in chat mode the text is `message`). */
  data?: unknown;
  message?: string;
  /** Deep research: the Markdown analysis, and the JSON answer when asked for. */
  finalAnalysis?: string;
  json?: unknown;
  sources: AgentSource[];
  stopReason: StopReason;
  steps: number;
  modelTurns: number;
  warnings: string[];
}
