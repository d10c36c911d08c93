import Router from '@koa/router';
import { apiOperations, buildOpenApiDocument, packageVersion } from '../openapi';
import type { PublicUrl } from '../http';

/** `GET /openapi.json`: the API's OpenAPI 3.1 document, unauthenticated like `/health`. */
export function openApiRoutes({ publicUrl }: { publicUrl: PublicUrl }): Router {
  const router = new Router();
  // Built once: the schemas are fixed for the life of the process.
  const document = buildOpenApiDocument(apiOperations, { version: packageVersion() });
  router.get('/openapi.json', (ctx) => {
    ctx.body = { ...document, servers: [{ url: publicUrl(ctx, '') }] };
  });
  return router;
}
