import { z } from 'zod';
import { ErrorEnvelope } from '../../../shared/api/responses/error-envelope';

/** A string or a number (JSON-RPC 2.0); left open, as the transport checks it. */
const JsonRpcId = z.unknown();

/**
 * What `POST /mcp` takes, as far as the OpenAPI document needs to say: one JSON-RPC 2.0 message of
 * the Model Context Protocol (a request, a notification or a response). The MCP SDK's transport
 * checks the rest.
 */
export const McpMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.string().optional(),
  params: z.looseObject({}).optional(),
  result: z.looseObject({}).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});

/** A JSON-RPC 2.0 error, as the MCP transport answers a message it refuses. */
const JsonRpcError = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  error: z.looseObject({ code: z.number(), message: z.string() }),
});

/** The answer to a request: a JSON-RPC 2.0 response with its result or error. */
export const McpResponse = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  result: z.looseObject({}).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});

/**
 * A refused `POST /mcp`: in Firecrawl's envelope when the API refused it (the key, the body's size
 * or JSON), as a JSON-RPC error when the MCP transport did (Accept, Content-Type, the message).
 */
export const McpError = z.union([ErrorEnvelope, JsonRpcError]);
