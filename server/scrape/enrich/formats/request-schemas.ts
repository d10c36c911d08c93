import type { ScrapeRequestV2 } from '../../../../shared/api/v2/scrape-request';
import { errors } from '../../../platform/errors';
import { type GuardedSchema, SchemaRejectedError, guardSchema } from '../../../platform/llm';

export interface RequestSchemas {
  json?: GuardedSchema;
  changeTracking?: GuardedSchema;
}

/**
 * The caller's JSON Schemas (json format, changeTracking format), checked and compiled before any
 * browser work: a schema that is too big, too deep or does not compile is the caller's 400.
 */
export function requestSchemas(request: ScrapeRequestV2): RequestSchemas {
  const schemas: RequestSchemas = {};
  request.formats.forEach((format, index) => {
    if (format.type !== 'json' && format.type !== 'changeTracking') return;
    // firecrawl-py's JsonFormat sends `schema: null` when it has none.
    if (format.schema === undefined || format.schema === null) return;
    try {
      schemas[format.type] = guardSchema(format.schema);
    } catch (err) {
      if (!(err instanceof SchemaRejectedError)) throw err;
      throw errors.badRequest([
        { code: 'custom', message: `Invalid schema: ${err.message}`, path: ['formats', index, 'schema'] },
      ]);
    }
  });
  return schemas;
}
