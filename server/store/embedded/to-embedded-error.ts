import { DuplicateKeyError } from '../database';

/** NeDB marks unique-index violations (`_id` included) with `errorType: 'uniqueViolated'`. */
export function toEmbeddedError(error: unknown, collection: string): unknown {
  if (
    typeof error === 'object' &&
    error !== null &&
    (error as { errorType?: unknown }).errorType === 'uniqueViolated'
  ) {
    const { key } = error as { key?: unknown };
    const duplicate = new DuplicateKeyError(collection, `key ${JSON.stringify(key)} is already taken`);
    duplicate.cause = error;
    return duplicate;
  }
  return error;
}
