import { ParseOptionsV2 } from '../../../shared/api/v2/parse-request';
import { checkJsonTextDepth, inspectJson, parseBody } from '../../platform/input';
import { parseErrors } from './parse-errors';

/**
 * The `options` part: JSON text of ParseOptionsV2, inspected for depth, sizes and forbidden keys
 * like any JSON body before the schema sees it. Absent or blank means every default.
 */
export function parseOptionsText(text: string | undefined): ParseOptionsV2 {
  if (text === undefined || text.trim() === '') return parseBody(ParseOptionsV2, {});
  checkJsonTextDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw parseErrors.badUpload('The options part is not valid JSON', ['options']);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw parseErrors.badUpload('The options part must be a JSON object', ['options']);
  }
  inspectJson(value);
  return parseBody(ParseOptionsV2, value);
}

/**
 * Whether the options name `parsers` at all. Firecrawl's default list holds "image" beside "pdf",
 * so an upload whose options leave `parsers` out has its images read with OCR; a list that omits
 * "image" keeps images refused as unsupported files, as Firecrawl's clients describe.
 */
export function namesParsers(text: string | undefined): boolean {
  if (text === undefined || text.trim() === '') return false;
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null && 'parsers' in value;
}
