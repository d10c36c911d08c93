import { errors } from '../../platform/errors';
import type { JobService } from '../../products/jobs';

/** A crawl or batch job's state with all its pages, as Firecrawl's MCP status tools answer it. */
export interface WholeJobStatus {
  id: string;
  status: string;
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  next: null;
  data: unknown[];
}

/**
 * The team's crawl or batch job with every page read so far, page after page of the status route's
 * paging (`nextSkip`), so that the agent gets the whole job in one answer. Another team's job is
 * not found, as on `GET /v2/crawl/:id`.
 */
export async function readJobStatus(jobs: JobService, teamId: string, id: string): Promise<WholeJobStatus> {
  const first = await jobs.status(teamId, id, { skip: 0 });
  if (first === undefined) throw errors.jobNotFound();
  const data = [...first.data];
  let skip = first.nextSkip;
  while (skip !== undefined) {
    const page = await jobs.status(teamId, id, { skip });
    if (page === undefined) break;
    data.push(...page.data);
    skip = page.nextSkip;
  }
  return {
    id,
    status: first.status,
    completed: first.completed,
    total: first.total,
    creditsUsed: first.creditsUsed,
    expiresAt: first.expiresAt,
    next: null,
    data,
  };
}

/** Whether a job status says the job has ended. */
export const jobEnded = (status: { status: string }) =>
  status.status === 'completed' || status.status === 'failed' || status.status === 'cancelled';
