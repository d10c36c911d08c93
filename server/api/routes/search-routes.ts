import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SearchRequestV1 } from '../../../shared/api/v1/search-request';
import { SearchRequestV2, searchOptionWarnings } from '../../../shared/api/v2/search-request';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import { teamOf } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import { type SearchService, v1SearchData } from '../../products/search';

/**
 * `POST /v2/search` (results grouped by source, docs/wire-contract.md §13) and `POST /v1/search` (web results
 * as an array, docs/wire-contract.md §11.5), both on one search service.
 */
export function searchRoutes({ search, api }: { search: SearchService; api: Middleware }): Router {
  const router = new Router();

  router.post('/v2/search', api, async (ctx) => {
    const parsed = SearchRequestV2.safeParse(ctx.request.body);
    if (!parsed.success) throw errors.invalidSearchBody(toIssueDetails(parsed.error), ctx.request.body);
    const answer = await search.search(parsed.data, teamOf(ctx).id);
    const warnings = [...searchOptionWarnings(ctx.request.body), ...answer.warnings];
    ctx.body = {
      success: true,
      data: answer.data,
      creditsUsed: answer.creditsUsed,
      ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
    };
  });

  router.post('/v1/search', api, async (ctx) => {
    const { jsonKey, warnings: optionWarnings, ...request } = parseBody(SearchRequestV1, ctx.request.body);
    const answer = await search.search({ ...request, sources: ['web'], categories: [] }, teamOf(ctx).id);
    const { data, warnings } = v1SearchData(answer, {
      jsonKey,
      scraped: request.scrapeOptions.formats.length > 0,
      wantsMarkdown: request.scrapeOptions.formats.some((format) => format.type === 'markdown'),
    });
    const all = [...optionWarnings, ...warnings];
    ctx.body = { success: true, data, ...(all.length > 0 ? { warning: all.join(' ') } : {}) };
  });

  return router;
}
