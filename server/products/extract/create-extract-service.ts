import { randomUUID } from 'node:crypto';
import type { ExtractStatus } from '../../../shared/api/responses/extract-responses';
import type { ExtractRequest } from '../../../shared/api/v2/extract-request';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { errors } from '../../platform/errors';
import { createInProcessJobs, enqueueWebhook } from '../jobs';
import { SchemaRejectedError, guardSchema } from '../../platform/llm';
import type { Stores } from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';
import type { UrlPolicy } from '../../platform/url-policy';
import { EXTRACT_HEARTBEAT_MS, EXTRACT_STALL_MS } from './extract-limits';
import type { ExtractOutput, ExtractSpec } from './extract-spec';
import { extractStatusBody } from './extract-status';
import { resolveExtractUrls } from './resolve-extract-urls';
import { type ExtractRunDeps, runExtract } from './run-extract';

export const STOPPED_ERROR = 'The server stopped while this extract job ran; start the extract again.';

const AGENT_WARNING = 'The FIRE-1 agent is not available on this server; agent was ignored.';
const EXTERNAL_LINKS_WARNING =
  'allowExternalLinks has no effect here: a wildcard URL covers the pages its site map lists on that site.';

/**
 * Extract jobs (`/v1/extract`, `/v2/extract`): accepted into the job store (kind `extract`), run
 * in the instance that accepted them (runExtract, through createInProcessJobs: heartbeat, stall
 * detection, settling and webhooks), answered from the store by any instance.
 * Credits: each page is booked by the scraper as the json-format scrape it is, each wildcard's
 * site map and the web search by their own services; the job's `creditsUsed` is their sum.
 */
export function createExtractService({
  stores,
  urlPolicy,
  heartbeatMs = EXTRACT_HEARTBEAT_MS,
  stallAfterMs = EXTRACT_STALL_MS,
  ...runDeps
}: ExtractRunDeps & {
  stores: Pick<Stores, 'jobs' | 'teams' | 'webhookOutbox'>;
  /** Refuses private and metadata targets and webhook URLs when the job is submitted. */
  urlPolicy?: UrlPolicy | undefined;
  heartbeatMs?: number;
  stallAfterMs?: number;
}) {
  const jobs = createInProcessJobs<ExtractSpec, ExtractOutput>({
    kind: 'extract',
    jobs: stores.jobs,
    webhookOutbox: stores.webhookOutbox,
    log: runDeps.log,
    heartbeatMs,
    stallAfterMs,
    stoppedError: STOPPED_ERROR,
    stalledError: (seconds) =>
      `The server running this extract job stopped while it ran (no progress for ${seconds} s); start the extract again.`,
    webhookOf: (spec) => spec.webhook,
    webhookData: (output, spec) => [
      {
        data: output.data,
        ...(spec.showSources ? { sources: output.sources } : {}),
        ...(output.warnings.length > 0 ? { warning: output.warnings.join(' ') } : {}),
      },
    ],
  });

  const checkWebhook = async (url: string) => {
    if (urlPolicy === undefined) return;
    const verdict = await urlPolicy.check(new URL(url));
    if (!verdict.allowed && verdict.reason !== 'dns') {
      throw errors.urlBlocked(`Webhook URL refused: ${verdict.message}`);
    }
  };

  return {
    /** Checks the request, stores the job and starts it here; answers its id. */
    async start(teamId: string, request: ExtractRequest, version: 'v1' | 'v2'): Promise<{ id: string }> {
      await ensureCreditsLeft(stores.teams, teamId);
      let schema: unknown;
      if (request.schema !== undefined) {
        try {
          schema = guardSchema(request.schema).schema;
        } catch (err) {
          if (!(err instanceof SchemaRejectedError)) throw err;
          throw errors.badRequest([
            { code: 'custom', message: `Invalid schema: ${err.message}`, path: ['schema'] },
          ]);
        }
      }
      const { targets, warnings } = await resolveExtractUrls(request.urls, {
        urlPolicy,
        ignoreInvalidURLs: request.ignoreInvalidURLs,
      });
      const searching = request.enableWebSearch && request.prompt !== undefined;
      if (targets.length === 0 && !searching) {
        throw errors.badRequest([
          {
            code: 'custom',
            message: `No valid URL to extract from. ${warnings.join(' ')}`.trim(),
            path: ['urls'],
          },
        ]);
      }
      if (request.webhook !== undefined) await checkWebhook(request.webhook.url);
      if (request.agentRequested) warnings.push(AGENT_WARNING);
      if (request.allowExternalLinks) warnings.push(EXTERNAL_LINKS_WARNING);

      const spec: ExtractSpec = {
        version,
        targets,
        prompt: request.prompt,
        ...(schema === undefined ? {} : { schema }),
        systemPrompt: request.systemPrompt,
        enableWebSearch: searching,
        includeSubdomains: request.includeSubdomains,
        showSources: request.showSources,
        scrapeOptions: request.scrapeOptions ?? ScrapeOptionsV2.parse({}),
        webhook: request.webhook,
        warnings,
      };
      const id = randomUUID();
      await stores.teams.ensure({ id: teamId, name: teamId });
      const job = await stores.jobs.create({ _id: id, teamId, kind: 'extract', request: spec });
      await enqueueWebhook({ outbox: stores.webhookOutbox, job, spec, event: 'started', key: 'started' });
      jobs.launch(job, spec, (run) => runExtract(spec, run, runDeps));
      return { id };
    },

    /** The job's status for its team; undefined for another team's job, another kind, or none. */
    async status(teamId: string, id: string): Promise<ExtractStatus | undefined> {
      const job = await jobs.read(teamId, id);
      return job === undefined ? undefined : extractStatusBody(job);
    },

    /** Ends the jobs running here as failed (the server is stopping); their pages are abandoned. */
    stop: () => jobs.stop(),
  };
}

export type ExtractService = ReturnType<typeof createExtractService>;
