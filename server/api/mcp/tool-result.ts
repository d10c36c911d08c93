import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errors, TabhiveError } from '../../platform/errors';
import type { Log } from '../../platform/log';
import { StoreUnavailableError } from '../../platform/store';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool's answer as Firecrawl's MCP server gives it: the JSON as text (what agents read), and the
 * same object as structured content for clients that take it.
 */
export function toolResult(data: unknown): CallToolResult {
  const text = JSON.stringify(data, null, 2);
  return isRecord(data)
    ? { content: [{ type: 'text', text }], structuredContent: data }
    : { content: [{ type: 'text', text }] };
}

/** Validation issues (`{code, message, path}` each): the error's message says them already. */
const isIssueList = (details: unknown) =>
  Array.isArray(details) &&
  details.every((issue) => isRecord(issue) && typeof issue.message === 'string' && Array.isArray(issue.path));

/**
 * A failed tool call (`isError`), worded as the HTTP API words the same failure: the API's error
 * message as text, and its envelope (`code`, `details`) as structured content. The text shows other
 * details as JSON, but not validation issues: the message says them in a sentence, which is what an
 * agent reads. Anything that is not a TabhiveError is a bug: logged with an exception id that the
 * answer names, revealing nothing else.
 */
export function toolError(caught: unknown, { log, tool }: { log: Log; tool: string }): CallToolResult {
  const err = caught instanceof StoreUnavailableError ? errors.storeUnavailable() : caught;
  if (err instanceof TabhiveError) {
    const envelope = {
      success: false,
      ...(err.code === undefined ? {} : { code: err.code }),
      error: err.message,
      ...(err.details === undefined ? {} : { details: err.details }),
    };
    const details =
      err.details === undefined || isIssueList(err.details)
        ? ''
        : `\n${JSON.stringify(err.details, null, 2)}`;
    return {
      isError: true,
      content: [{ type: 'text', text: `${err.message}${details}` }],
      structuredContent: envelope,
    };
  }
  const exceptionId = randomUUID();
  log.error('unhandled error in an MCP tool', {
    exceptionId,
    tool,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  const message = `An unexpected error occurred. Your exception ID is ${exceptionId}`;
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    structuredContent: { success: false, code: 'UNKNOWN_ERROR', error: message },
  };
}
