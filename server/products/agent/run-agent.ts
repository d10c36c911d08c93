import type { AgentTraceError } from '../../../shared/api/v2/agent-trace';
import { JobAborted, JobFailure, type JobRun } from '../jobs';
import {
  LlmError,
  type ToolCallingLlm,
  type ToolChatMessage,
  assistantTurn,
  type GuardedSchema,
  guardSchema,
} from '../../platform/llm';
import type { Log } from '../../platform/log';
import type { Mapper } from '../map';
import type { Scraper } from '../../scrape/types';
import type { SearchService } from '../search';
import { MAX_CALLS_PER_TURN, MODEL_TURN_CREDITS, TRACE_TEXT_CHARS } from './agent-limits';
import { analysisRequest, finalAnswerRequest, openingMessages, researchJsonRequest } from './agent-prompts';
import type { AgentOutput, AgentSource, AgentSpec, StopReason } from './agent-spec';
import { agentToolDefinitions } from './agent-tool-definitions';
import type { TraceRecorder } from './agent-trace';
import { settleJsonAnswer } from './final-answer';
import { type ToolOutcome, runAgentTool, traceParameters } from './run-agent-tool';
import { createUrlScope } from './url-scope';

export interface AgentRunDeps {
  llm: ToolCallingLlm;
  /** The scraper: scrape and interact pages, booked and admitted as scrapes (`product-job`, scrapeJobPage). */
  scraper: Scraper;
  search?: SearchService | undefined;
  mapper?: Mapper | undefined;
  log: Log;
}

export interface AgentRunHooks {
  trace: TraceRecorder;
  /** A tool call finished (the `action` webhook). */
  onAction(action: { toolName: string; parameters: unknown; result: unknown }): Promise<void>;
  /** The model calls made so far, when the run ends whichever way (booked once by the caller). */
  onModelCalls(calls: number, totalCredits: number): Promise<void>;
  /** The caller cancelled the run (rather than the server stopping). */
  cancelled(): boolean;
}

/** Credits kept back for the answer: the agent's answer and its repair; research's analysis (+ JSON and repair). */
const answerReserve = (spec: AgentSpec) =>
  MODEL_TURN_CREDITS *
  (spec.flavor === 'agent' ? (spec.mode === 'chat' ? 1 : 2) : spec.research?.json ? 3 : 1);

const LIMIT_MESSAGES: Record<Exclude<StopReason, 'completed'>, (spec: AgentSpec) => string> = {
  max_steps: (spec) => `You have used all ${spec.maxSteps} turns of tool calls.`,
  credit_limit_reached: () => "The run's credit budget (maxCredits) is spent.",
  time_limit: () => "The run's time limit is reached.",
};

const cut = (text: string) => (text.length > TRACE_TEXT_CHARS ? `${text.slice(0, TRACE_TEXT_CHARS)}…` : text);

/**
 * One agent (or deep research) run: the model plans with tool calls, Tabhive's own services act
 * (search, map, scrape, interact), until the model answers or a limit stops the tools (the step
 * cap, maxCredits, the time limit); then the answer is asked for and checked against the schema
 * (one repair). Every tool call is traced; the caller's signal stops the loop between and during
 * calls (the model request and the page are aborted).
 */
export async function runAgent(
  spec: AgentSpec,
  { teamId, signal, onCredits }: JobRun,
  deps: AgentRunDeps,
  hooks: AgentRunHooks,
): Promise<{ output: AgentOutput; creditsUsed: number }> {
  const { llm, log } = deps;
  const { trace } = hooks;
  const started = Date.now();
  const deadline = started + spec.timeoutMs;
  const schema: GuardedSchema | undefined = spec.schema === undefined ? undefined : guardSchema(spec.schema);
  const tools = agentToolDefinitions(spec.flavor);
  const toolNames = tools.map((tool) => tool.name);
  const scope = createUrlScope(spec.urls, spec.strict);
  const reserve = answerReserve(spec);
  const messages: ToolChatMessage[] = openingMessages(spec, schema);
  const sources = new Map<string, AgentSource>();
  const warnings: string[] = [];
  let toolCredits = 0;
  let modelCalls = 0;
  let pagesRead = 0;
  let steps = 0;
  const spent = () => toolCredits + modelCalls * MODEL_TURN_CREDITS;
  const room = () => spec.maxCredits - spent() - reserve;
  const countCall = () => {
    modelCalls += 1;
    onCredits(spent());
  };
  const context = {
    teamId,
    scraper: deps.scraper,
    search: deps.search,
    mapper: deps.mapper,
    scope,
    signal,
    deadline,
    pagesLeft: () => (spec.maxPages ?? Infinity) - pagesRead,
    creditsLeft: () => Math.max(0, room()),
    screensInjection: spec.screensInjection === true,
    log,
  };
  let booked = false;
  /** Books the model calls once, before the trace says the run finished (readers then see final credits). */
  const bookModelCalls = async () => {
    if (booked) return;
    booked = true;
    await hooks.onModelCalls(modelCalls, spent());
  };
  const finish = async (
    outcome: 'succeeded' | 'failed' | 'cancelled' | 'credit_limit_reached',
    error: AgentTraceError | null,
  ) => {
    await bookModelCalls();
    await trace.emit({
      type: 'agent.finished',
      outcome: outcome === 'credit_limit_reached' ? 'succeeded' : outcome,
      durationMs: Date.now() - started,
      error,
    });
    await trace.emit({ type: 'run.finished', outcome, error });
  };

  await trace.emit({ type: 'agent.started' });
  await trace.emit({
    type: 'progress.reported',
    phase: 'planning',
    message: `Working on: ${cut(spec.prompt)}`,
  });
  try {
    let stop: StopReason | undefined;
    let finalText: string | undefined;
    for (let step = 1; stop === undefined; step++) {
      if (signal.aborted) throw new JobAborted('the agent run was stopped');
      if (step > spec.maxSteps) stop = 'max_steps';
      else if (Date.now() >= deadline) stop = 'time_limit';
      else if (room() < MODEL_TURN_CREDITS) stop = 'credit_limit_reached';
      if (stop !== undefined) break;
      steps = step;
      trace.setStep(step);
      countCall();
      const turn = await llm.chat(messages, { tools, toolChoice: 'auto', signal });
      messages.push(assistantTurn(turn));
      if (turn.toolCalls.length === 0) {
        finalText = turn.content ?? '';
        stop = 'completed';
        break;
      }
      if (turn.content !== null && turn.content.trim() !== '') {
        await trace.emit({ type: 'reasoning.summary', text: cut(turn.content) });
      }
      let creditStop = false;
      for (const [index, call] of turn.toolCalls.entries()) {
        const parameters = traceParameters(call.arguments);
        await trace.emit({ type: 'tool_call.started', toolCallId: call.id, toolName: call.name, parameters });
        let outcome: ToolOutcome;
        let refusalCode: AgentTraceError['code'] = 'refused';
        if (index >= MAX_CALLS_PER_TURN) {
          const reason = `at most ${MAX_CALLS_PER_TURN} tool calls are run per turn`;
          outcome = {
            forModel: `Refused: ${reason}`,
            summary: { refused: true, reason },
            credits: 0,
            refused: reason,
          };
        } else if (creditStop || room() < 1) {
          const reason = `the run's credit budget (maxCredits ${spec.maxCredits}) is spent`;
          outcome = {
            forModel: `Refused: ${reason}`,
            summary: { refused: true, reason },
            credits: 0,
            refused: reason,
          };
          refusalCode = 'credit_limit_reached';
          creditStop = true;
        } else {
          outcome = await runAgentTool(context, call, toolNames);
          if (signal.aborted) throw new JobAborted('the agent run was stopped');
        }
        if ((call.name === 'scrape' || call.name === 'interact') && outcome.refused === undefined)
          pagesRead += 1;
        toolCredits += outcome.credits;
        onCredits(spent());
        if (outcome.source !== undefined && !sources.has(outcome.source.url)) {
          sources.set(outcome.source.url, outcome.source);
        }
        if (outcome.outOfCredits === true) {
          creditStop = true;
          refusalCode = 'credit_limit_reached';
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.forModel });
        const result = { ...outcome.summary, creditsUsed: outcome.credits };
        await trace.emit({ type: 'tool_call.finished', toolCallId: call.id, toolName: call.name, result });
        if (outcome.refused !== undefined || outcome.outOfCredits === true) {
          await trace.emit({
            type: 'error.occurred',
            error: {
              code: refusalCode,
              source: refusalCode === 'credit_limit_reached' ? 'billing' : 'tool',
              retryable: false,
              message: `${call.name}: ${outcome.refused ?? "the team's credits are spent"}`,
            },
          });
        }
        await hooks.onAction({ toolName: call.name, parameters, result });
      }
      if (creditStop) stop = 'credit_limit_reached';
    }

    const limit = stop === 'completed' ? undefined : LIMIT_MESSAGES[stop](spec);
    if (limit !== undefined) {
      warnings.push(`The tools stopped early: ${limit}`);
      await trace.emit({ type: 'progress.reported', phase: 'finalizing', message: limit });
    } else {
      await trace.emit({ type: 'progress.reported', phase: 'finalizing', message: 'Writing the answer.' });
    }
    const output: AgentOutput = {
      sources: [...sources.values()],
      stopReason: stop,
      steps,
      modelTurns: 0,
      warnings,
    };
    const askText = async (content: string) => {
      messages.push({ role: 'user', content });
      countCall();
      const turn = await llm.chat(messages, { tools, toolChoice: 'none', signal });
      const text = turn.content ?? '';
      messages.push({ role: 'assistant', content: text });
      if (text.trim() === '') throw new JobFailure('The model gave an empty final answer.');
      return text;
    };
    if (spec.flavor === 'research') {
      output.finalAnalysis = await askText(analysisRequest(spec, limit));
      if (spec.research?.json === true) {
        output.json = await settleJsonAnswer({
          llm,
          messages,
          tools,
          schema,
          request: researchJsonRequest(spec, schema),
          signal,
          onCall: countCall,
        });
      }
    } else if (spec.mode === 'chat') {
      output.message =
        finalText !== undefined && finalText.trim() !== ''
          ? finalText
          : await askText(finalAnswerRequest(spec, schema, limit));
    } else {
      output.data = await settleJsonAnswer({
        llm,
        messages,
        tools,
        schema,
        request: finalAnswerRequest(spec, schema, limit),
        first: finalText,
        signal,
        onCall: countCall,
      });
    }
    output.modelTurns = modelCalls;
    await trace.emit({
      type: 'artifact.updated',
      artifact: {
        kind: spec.flavor === 'research' ? 'markdown' : spec.mode === 'chat' ? 'text' : 'json',
        artifactId: 'answer',
        snapshotId: 'answer',
        change: 'init',
      },
    });
    const creditLimited = stop === 'credit_limit_reached';
    await finish(
      creditLimited ? 'credit_limit_reached' : 'succeeded',
      creditLimited
        ? {
            code: 'credit_limit_reached',
            source: 'billing',
            retryable: false,
            message: "The tools stopped at the run's credit budget; the answer uses what was found before.",
          }
        : null,
    );
    return { output, creditsUsed: spent() };
  } catch (err) {
    if (signal.aborted || err instanceof JobAborted) {
      const cancelled = hooks.cancelled();
      await finish(cancelled ? 'cancelled' : 'failed', {
        code: 'cancelled',
        source: 'system',
        retryable: false,
        message: cancelled ? 'The run was cancelled.' : 'The server stopped while the run worked.',
      });
      throw new JobAborted('the agent run was stopped');
    }
    const message =
      err instanceof JobFailure
        ? err.message
        : err instanceof LlmError
          ? `The model could not be used: ${err.message}.`
          : `The run failed: ${err instanceof Error ? err.message : String(err)}`;
    if (!(err instanceof JobFailure) && !(err instanceof LlmError)) {
      log.error('agent run failed unexpectedly', { error: String(err) });
    }
    const error: AgentTraceError = { code: 'internal', source: 'agent', retryable: false, message };
    await trace.emit({ type: 'error.occurred', error });
    await finish('failed', error);
    throw new JobFailure(message);
  } finally {
    await bookModelCalls();
  }
}
