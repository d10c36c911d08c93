import { randomUUID } from 'node:crypto';
import type { Filter, Update } from '../database';
import { cloneValue } from './clone-value';
import { applyUpdate } from './apply-update';
import { setAtPath } from './document-path';
import { isOperatorObject } from './match-filter';

/**
 * The document an upsert inserts when nothing matched, built as MongoDB builds it: the filter's
 * equality conditions (plain values and `$eq`, dotted paths become nested fields; not `$or`), then
 * the update with `$setOnInsert`. A missing `_id` becomes a UUID, never an ObjectId.
 */
export function upsertDocument(filter: Filter, update: Update): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) continue;
    if (!isOperatorObject(condition)) setAtPath(document, path, cloneValue(condition ?? null));
    else if ('$eq' in condition) setAtPath(document, path, cloneValue(condition.$eq));
  }
  applyUpdate(document, update, true);
  if (document._id === undefined) document._id = randomUUID();
  return document;
}
