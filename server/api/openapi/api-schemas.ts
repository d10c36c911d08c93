import { z } from 'zod';
import { JobPageQuery } from '../../../shared/api/job-page-query';
import { CrawlParamsPreviewResponse } from '../../../shared/api/responses/crawl-params-preview-response';
import { CancelError, ErrorEnvelope } from '../../../shared/api/responses/error-envelope';
import { ExtractStarted, ExtractStatus } from '../../../shared/api/responses/extract-responses';
import { HealthResponse } from '../../../shared/api/responses/health-response';
import { ReadyResponse } from '../../../shared/api/responses/ready-response';
import {
  JobCancelled,
  JobErrors,
  JobStarted,
  JobStatus,
  OngoingCrawls,
} from '../../../shared/api/responses/job-responses';
import { MapResponseV1, MapResponseV2 } from '../../../shared/api/responses/map-responses';
import { ScrapeResponse } from '../../../shared/api/responses/scrape-responses';
import { SearchResponseV1, SearchResponseV2 } from '../../../shared/api/responses/search-responses';
import {
  ConcurrencyCheck,
  CreditUsageHistorical,
  QueueStatus,
  TokenUsageHistorical,
  UsageHistoryQuery,
  CreditUsageV1,
  CreditUsageV2,
  TokenUsageV1,
  TokenUsageV2,
} from '../../../shared/api/responses/usage-responses';
import { BatchScrapeRequestV1 } from '../../../shared/api/v1/batch-scrape-request';
import { LlmsTxtRequest } from '../../../shared/api/v1/llmstxt-request';
import { LlmsTxtStarted, LlmsTxtStatus } from '../../../shared/api/responses/llmstxt-responses';
import { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';
import { ExtractRequestV1 } from '../../../shared/api/v1/extract-request';
import { MapRequestV1 } from '../../../shared/api/v1/map-request';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';
import { SearchRequestV1 } from '../../../shared/api/v1/search-request';
import { BatchScrapeRequestV2 } from '../../../shared/api/v2/batch-scrape-request';
import { CrawlParamsPreviewRequest } from '../../../shared/api/v2/crawl-params-preview-request';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { ExtractRequestV2 } from '../../../shared/api/v2/extract-request';
import { MapRequestV2 } from '../../../shared/api/v2/map-request';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { SearchRequestV2 } from '../../../shared/api/v2/search-request';
import { ParseOptionsV2 } from '../../../shared/api/v2/parse-request';
import {
  ParseUploadPutResponse,
  ParseUploadUrlRequest,
  ParseUploadUrlResponse,
} from '../../../shared/api/v2/parse-upload';
import { ParseFormatsResponse } from '../../products/parse';
import {
  CreateMonitorRequest,
  MonitorCheckQuery,
  MonitorListQuery,
  UpdateMonitorRequest,
} from '../../../shared/api/v2/monitor-request';
import {
  MonitorCheckDetailResponse,
  MonitorCheckListResponse,
  MonitorCheckResponse,
  MonitorDeleted,
  MonitorListResponse,
  MonitorResponse,
} from '../../../shared/api/v2/monitor-responses';
import {
  BrowserCreateRequest,
  BrowserExecuteRequest,
  BrowserListQuery,
} from '../../../shared/api/v2/browser-session';
import {
  BrowserCreated,
  BrowserDeleted,
  BrowserExecuted,
  BrowserList,
} from '../../../shared/api/responses/browser-session-responses';
import { ReplayPage, ReplayPages } from '../../../shared/api/responses/browser-replay-responses';
import { AgentListQuery, AgentRequestV2 } from '../../../shared/api/v2/agent-request';
import { DeepResearchRequestV1 } from '../../../shared/api/v1/deep-research-request';
import {
  AgentCancelled,
  AgentList,
  AgentSnapshotResponse,
  AgentStarted,
  AgentStatus,
  AgentThreadResponse,
  AgentTraceResponse,
  DeepResearchStarted,
  DeepResearchStatus,
} from '../../../shared/api/responses/agent-responses';
import { McpError, McpMessage, McpResponse } from '../mcp';

/**
 * The zod schemas the routes parse requests with, and those their answers follow, under the names
 * the OpenAPI document gives them (`#/components/schemas/<name>`).
 */
export const requestSchemas = {
  ScrapeRequestV2,
  ScrapeRequestV1,
  CrawlRequestV2,
  CrawlRequestV1,
  BatchScrapeRequestV2,
  BatchScrapeRequestV1,
  MapRequestV2,
  MapRequestV1,
  CrawlParamsPreviewRequest,
  SearchRequestV2,
  SearchRequestV1,
  ExtractRequestV2,
  ExtractRequestV1,
  ParseOptionsV2,
  ParseUploadUrlRequest,
  LlmsTxtRequest,
  CreateMonitorRequest,
  UpdateMonitorRequest,
  BrowserCreateRequest,
  BrowserExecuteRequest,
  AgentRequestV2,
  DeepResearchRequestV1,
  McpMessage,
} satisfies Record<string, z.ZodType>;

/** Enough of an OpenAPI document to tell it from anything else. */
const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
});

export const responseSchemas = {
  ErrorEnvelope,
  CancelError,
  ScrapeResponse,
  SearchResponseV2,
  SearchResponseV1,
  JobStarted,
  JobStatus,
  JobCancelled,
  JobErrors,
  OngoingCrawls,
  MapResponseV2,
  MapResponseV1,
  CrawlParamsPreviewResponse,
  HealthResponse,
  ReadyResponse,
  OpenApiDocument,
  CreditUsageV2,
  CreditUsageV1,
  TokenUsageV2,
  TokenUsageV1,
  ConcurrencyCheck,
  ExtractStarted,
  ExtractStatus,
  CreditUsageHistorical,
  TokenUsageHistorical,
  QueueStatus,
  LlmsTxtStarted,
  LlmsTxtStatus,
  ParseFormatsResponse,
  ParseUploadUrlResponse,
  ParseUploadPutResponse,
  MonitorResponse,
  MonitorListResponse,
  MonitorDeleted,
  MonitorCheckResponse,
  MonitorCheckListResponse,
  MonitorCheckDetailResponse,
  BrowserCreated,
  BrowserExecuted,
  BrowserList,
  BrowserDeleted,
  ReplayPages,
  ReplayPage,
  AgentStarted,
  AgentStatus,
  AgentList,
  AgentCancelled,
  AgentTraceResponse,
  AgentThreadResponse,
  AgentSnapshotResponse,
  DeepResearchStarted,
  DeepResearchStatus,
  McpResponse,
  McpError,
} satisfies Record<string, z.ZodType>;

export const querySchemas = {
  JobPageQuery,
  UsageHistoryQuery,
  MonitorListQuery,
  MonitorCheckQuery,
  BrowserListQuery,
  AgentListQuery,
} satisfies Record<string, z.ZodObject>;

export type RequestSchemaName = keyof typeof requestSchemas;
export type ResponseSchemaName = keyof typeof responseSchemas;
export type QuerySchemaName = keyof typeof querySchemas;
