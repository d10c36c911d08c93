import { TabhiveError } from '../../platform/errors';

/** The agent's own errors, in Firecrawl's envelope (rendered by error-handler.ts). */
export const agentErrors = {
  /** A server without a model cannot plan: say what the operator sets. */
  llmNotConfigured: (what: 'agent' | 'deep research') =>
    new TabhiveError(
      'invalid-input',
      `The ${what} needs a language model, and this Tabhive server has none configured: set LLM_BASE_URL ` +
        '(and LLM_API_KEY, LLM_MODEL if the endpoint needs them) to an OpenAI-compatible chat completions ' +
        'endpoint whose model supports tool calling, then restart the server.',
      { code: 'LLM_NOT_CONFIGURED' },
    ),
  runEnded: (status: string) =>
    new TabhiveError('conflict', `The agent run has already ended (${status}); there is nothing to cancel.`, {
      code: 'AGENT_RUN_ENDED',
    }),
  snapshotNotFound: () =>
    new TabhiveError('not-found', 'No such snapshot: a run has one, "answer", once it has completed.', {
      code: 'SNAPSHOT_NOT_FOUND',
    }),
};
