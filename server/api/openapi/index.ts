/** The OpenAPI document of every route the server answers, built from the shared request schemas. */
export { apiOperations } from './api-operations';
export { buildOpenApiDocument } from './build-openapi-document';
export { packageVersion } from './package-version';
