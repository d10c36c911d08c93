import { z } from 'zod';
import { JsonValue } from '../../../shared/api/json-value';
import { FormatNameV2, FormatV2 } from '../../../shared/api/v2/formats';
import type { ApiOperation, MultipartBody } from './api-operations';
import { querySchemas, requestSchemas, responseSchemas } from './api-schemas';

type JsonSchema = Record<string, unknown>;

/**
 * Schemas that other schemas share and that the document names once, such as the recursive JSON
 * value: zod puts them in `$defs` under these ids, and they become components of their own.
 */
const sharedNames = z.registry<{ id: string }>().add(JsonValue, { id: 'JsonValue' });

/**
 * What JSON Schema cannot derive: FormatV2 turns a name into its object before validating, so the
 * conversion sees only the objects. Clients may send either; the names come from zod too.
 */
function documentInputForms(io: 'input' | 'output') {
  return ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) => {
    tupleAsArray(jsonSchema);
    if (io !== 'input' || zodSchema !== FormatV2) return;
    const objects = { ...jsonSchema };
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    jsonSchema.anyOf = [{ type: 'string', enum: FormatNameV2.options }, objects];
  };
}

/**
 * A fixed-length tuple (a block's `bbox`, four numbers) as an array of its items' one type and
 * its length: zod writes `prefixItems` with `items: false`, valid in OpenAPI 3.1, which the API
 * fuzzer's schema loader (schemathesis) refuses. Tuples here are all of one item type.
 */
function tupleAsArray(jsonSchema: Record<string, unknown>): void {
  const prefixItems = jsonSchema.prefixItems;
  if (!Array.isArray(prefixItems) || prefixItems.length === 0) return;
  const [first] = prefixItems as unknown[];
  if (!prefixItems.every((item) => JSON.stringify(item) === JSON.stringify(first))) return;
  delete jsonSchema.prefixItems;
  jsonSchema.items = first;
}

const DEFS_REF = /^#\/\$defs\/(.+)$/;

/** Points `#/$defs/<name>` references at `#/components/schemas/<name>`, everywhere in `value`. */
function pointRefsAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointRefsAtComponents);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const match = key === '$ref' && typeof inner === 'string' ? DEFS_REF.exec(inner) : null;
      return [key, match ? `#/components/schemas/${match[1]}` : pointRefsAtComponents(inner)];
    }),
  );
}

/**
 * A zod schema as the JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) of what a client sends
 * (`input`: defaults make fields optional, transforms show their input) or of what the server
 * answers (`output`: plain objects refuse keys they do not list). Named shared parts are moved
 * into `shared`, as components.
 */
function jsonSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  shared: Record<string, unknown>,
): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    metadata: sharedNames,
    override: documentInputForms(io),
  });
  const { $schema: _dialect, $defs: defs = {}, ...rest } = converted;
  for (const [name, definition] of Object.entries(defs)) {
    // zod names a repeated or recursive part `__schemaN` unless sharedNames gives it an id.
    if (name.startsWith('__schema')) throw new Error(`an unnamed shared schema: add it to sharedNames`);
    shared[name] = pointRefsAtComponents(definition);
  }
  return pointRefsAtComponents(rest) as JsonSchema;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function parametersOf(operation: ApiOperation, shared: Record<string, unknown>) {
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query: Record<string, z.ZodType> =
    operation.query === undefined ? {} : querySchemas[operation.query].shape;
  const queryParameters = Object.entries(query).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    schema: jsonSchemaOf(schema, 'input', shared),
  }));
  return [...pathParameters, ...queryParameters];
}

/** `get /v2/crawl/{id}/errors` → `getV2CrawlIdErrors`: stable, unique, and readable in generated clients. */
function operationIdOf({ method, path }: ApiOperation): string {
  const words = path.split(/[^a-zA-Z0-9]+/).filter((word) => word !== '');
  return method + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
}

function operationObject(operation: ApiOperation, shared: Record<string, unknown>) {
  const parameters = parametersOf(operation, shared);
  return {
    operationId: operationIdOf(operation),
    summary: operation.summary,
    tags: [operation.tag],
    security: operation.authenticated ? [{ bearerAuth: [] }] : [],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: { required: true, content: { 'application/json': { schema: ref(operation.body) } } },
        }),
    ...(operation.multipart === undefined ? {} : { requestBody: multipartRequestBody(operation.multipart) }),
    ...(operation.rawBody === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            description: operation.rawBody.description,
            content: {
              'application/octet-stream': {
                schema: { type: 'string', contentMediaType: 'application/octet-stream' },
              },
            },
          },
        }),
    responses: Object.fromEntries(
      Object.entries(operation.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          content:
            'text' in response
              ? { [response.text === 'html' ? 'text/html' : 'text/plain']: { schema: { type: 'string' } } }
              : { 'application/json': { schema: ref(response.schema) } },
        },
      ]),
    ),
  };
}

/** A multipart/form-data request body: an object of its parts (OpenAPI 3.1 §4.8.14.4). */
function multipartRequestBody({ parts, required }: MultipartBody) {
  const properties = Object.fromEntries(
    Object.entries(parts).map(([name, part]) => [name, { ...part.schema, description: part.description }]),
  );
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } },
  };
}

/**
 * The OpenAPI 3.1 document of the API: paths from the route table, schemas converted from the
 * same zod schemas the routes parse with, so the document cannot drift from what is enforced.
 */
export function buildOpenApiDocument(operations: readonly ApiOperation[], { version }: { version: string }) {
  const shared: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, shared);
  }
  const schemas: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(requestSchemas).map(([name, s]) => [name, jsonSchemaOf(s, 'input', shared)]),
    ),
    ...Object.fromEntries(
      Object.entries(responseSchemas).map(([name, s]) => [name, jsonSchemaOf(s, 'output', shared)]),
    ),
  };
  Object.assign(schemas, shared);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tabhive API',
      version,
      description:
        "Firecrawl's v1 and v2 HTTP APIs as Tabhive serves them. Authenticate with `Authorization: Bearer <API key>`.",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: [
      { name: 'v2', description: 'Firecrawl v2 API' },
      { name: 'v1', description: 'Firecrawl v1 API' },
      { name: 'service', description: 'Liveness and this document' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key' } },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
