import type Datastore from '@seald-io/nedb';
import type { IndexSpec } from '../database';

/**
 * NeDB keeps its indexes in these two fields (keyed by the sorted field names joined with
 * commas). They are not in its type definitions; we read them only to refuse a changed spec.
 */
interface NedbIndexes {
  indexes: Record<string, { unique: boolean }>;
  ttlIndexes: Record<string, number>;
}

/**
 * Creates the index, or does nothing when the same one exists. NeDB would silently keep an
 * existing index whose options differ; MongoDB refuses, and so do we. NeDB does not store index
 * names, so `names` (name → fields, for this process) catches a name reused for other fields.
 */
export async function ensureEmbeddedIndex(
  datastore: Datastore<Record<string, unknown>>,
  index: IndexSpec,
  names: Map<string, string>,
): Promise<void> {
  const fields = Object.keys(index.keys);
  if (fields.length === 0) throw new TypeError(`index ${index.name} has no keys`);
  if (index.expireAfterSeconds !== undefined && (fields.length !== 1 || fields[0]?.includes('.'))) {
    throw new TypeError(`TTL index ${index.name} must be on a single top-level Date field`);
  }
  const unique = index.unique === true;
  const key = [...fields].sort().join(',');
  const { indexes, ttlIndexes } = datastore as unknown as NedbIndexes;
  const named = names.get(index.name);
  if (named !== undefined && named !== key)
    throw new Error(`index ${index.name} already exists on other fields (${named})`);
  const existing = indexes[key];
  const ttl = ttlIndexes[key];
  if (existing && (existing.unique !== unique || (ttl !== undefined && ttl !== index.expireAfterSeconds))) {
    throw new Error(`index ${index.name}: an index on ${key} already exists with different options`);
  }
  if (existing) {
    // NeDB does not persist a TTL (its compaction drops the option, and loading never restores
    // it), so the index is back after a restart but its expiry is not: restore it here.
    if (index.expireAfterSeconds !== undefined) ttlIndexes[key] = index.expireAfterSeconds;
  } else {
    await datastore.ensureIndexAsync({
      fieldName: fields.length === 1 ? (fields[0] as string) : fields,
      unique,
      ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
    });
  }
  names.set(index.name, key);
}
