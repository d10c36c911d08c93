import type { ExtractStatus } from '../../../shared/api/responses/extract-responses';
import type { Job } from '../../platform/store';
import type { ExtractOutput, ExtractSpec } from './extract-spec';

/**
 * `GET /v{1,2}/extract/:id` from the stored job, as both SDKs read it: `status` in Firecrawl's
 * words (`processing` while it runs), `data` once completed, `sources` when the request asked for
 * them, the warnings joined into `warning`, and `error` when it failed.
 */
export function extractStatusBody(job: Job): ExtractStatus {
  const spec = job.request as ExtractSpec;
  const output = job.output as ExtractOutput | undefined;
  const completed = job.status === 'completed' && output !== undefined;
  // Whole seconds, as the other job routes answer.
  const expiresAt = new Date(job.expiresAt);
  expiresAt.setMilliseconds(0);
  const warnings = output?.warnings ?? spec.warnings;
  return {
    success: true,
    status: job.status === 'scraping' ? 'processing' : job.status,
    data: completed ? ((output.data ?? null) as ExtractStatus['data']) : null,
    expiresAt: expiresAt.toISOString(),
    creditsUsed: Math.max(0, Math.round(job.creditsUsed)),
    ...(completed && spec.showSources ? { sources: output.sources } : {}),
    ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
    ...(job.error === undefined ? {} : { error: job.error }),
  };
}
