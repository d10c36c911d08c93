/** Jobs: crawls and batch scrapes, their runner, their pages, their status and webhooks. */
export { fetchRobots, fetchSitemapUrls } from './crawl-discovery';
export type { SiteFileReader } from './crawl-discovery';
export { PatternError, bareHost, baseDomain, compilePatterns, isSkippedFileType } from './crawl-rules';
export { startPathWarning } from './crawl-warnings';
export { createJobRunner } from './create-job-runner';
export type { JobRunner } from './create-job-runner';
export { createJobService } from './create-job-service';
export type { JobService } from './create-job-service';
export { createStatusSocket, isStatusSocketPath } from './create-status-socket';
export { enqueueJobEvent, enqueueWebhook } from './enqueue-webhook';
export { LIVE_STATES, finishIfDone } from './finish-job';
export { JobAborted, JobFailure, createInProcessJobs } from './in-process-jobs';
export type { JobRun } from './in-process-jobs';
export { crawlSpecFromV1, crawlSpecFromV2, optional } from './job-spec';
export type { JobSpec } from './job-spec';
export type { RobotsRules } from './robots-txt';
export { scrapeJobPage } from './scrape-job-page';
