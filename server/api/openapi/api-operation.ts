import type { QuerySchemaName, RequestSchemaName, ResponseSchemaName } from './api-schemas';

/** What one answer of a route is: a JSON schema by name, or text. */
export type OperationResponse =
  | { description: string; schema: ResponseSchemaName }
  /** Text: plain (`true`) or an HTML page. */
  | { description: string; text: true | 'html' };

/** One route the server answers, as the OpenAPI document describes it. */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template: `{id}` where the router says `:id`. */
  path: string;
  summary: string;
  tag: 'v2' | 'v1' | 'service';
  /** Behind the bearer key (docs/wire-contract.md §1.2). */
  authenticated: boolean;
  body?: RequestSchemaName;
  /** A `multipart/form-data` body instead of a JSON one (`POST /v2/parse`). */
  multipart?: MultipartBody;
  /** A body of raw bytes (`PUT /v2/parse/upload/{id}`), with what it is. */
  rawBody?: { description: string };
  query?: QuerySchemaName;
  responses: Record<string, OperationResponse>;
}

/** The parts of a multipart body: each a JSON Schema of its value, with a description. */
export interface MultipartBody {
  parts: Record<string, { schema: Record<string, unknown>; description: string }>;
  required: string[];
}
