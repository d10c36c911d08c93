import { escapeKey, unescapeKey } from '../escape-keys';
import { isDocument } from './compare-values';

type Row = Record<string, unknown> & { _id: string };

/** An index as a collection file records it, so that a restart enforces it before it is declared again. */
export interface LoggedIndex {
  fields: string[];
  unique: boolean;
  expireAfterSeconds?: number;
}

/** One line of a collection file, decoded. */
export type LogLine =
  | { kind: 'row'; row: Row }
  | { kind: 'deleted'; id: string }
  | { kind: 'index'; index: LoggedIndex }
  | { kind: 'indexRemoved'; key: string };

/**
 * The line format is NeDB's, so that data directories written by earlier versions (which stored
 * through NeDB) load unchanged: one JSON document per line, Dates as `{"$$date": ms}`, a deletion as
 * `{"$$deleted": true, "_id": …}`, index declarations as `{"$$indexCreated": {fieldName, unique}}`.
 * Field names holding `.`, a leading `$` or `%` are percent-escaped on disk (escape-keys.ts), which
 * also keeps a stored `$$date` key from being read back as a Date.
 */
export function encodeRow(row: Row): string {
  return JSON.stringify(toDisk(row));
}

export function encodeDeletion(id: string): string {
  return JSON.stringify({ $$deleted: true, _id: id });
}

export function encodeIndex(index: LoggedIndex): string {
  return JSON.stringify({
    $$indexCreated: {
      fieldName: index.fields.length === 1 ? index.fields[0] : index.fields,
      unique: index.unique,
      sparse: false,
      ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
    },
  });
}

/** Undefined for a line that is not a record (a torn last line after a crash, or garbage). */
export function decodeLine(line: string): LogLine | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isDocument(parsed)) return undefined;
  if (parsed.$$deleted === true && typeof parsed._id === 'string') return { kind: 'deleted', id: parsed._id };
  const created = parsed.$$indexCreated;
  if (isDocument(created)) {
    const fields = typeof created.fieldName === 'string' ? created.fieldName.split(',') : created.fieldName;
    if (!Array.isArray(fields) || !fields.every((field): field is string => typeof field === 'string'))
      return undefined;
    const ttl = created.expireAfterSeconds;
    return {
      kind: 'index',
      index: {
        fields,
        unique: created.unique === true,
        ...(typeof ttl === 'number' ? { expireAfterSeconds: ttl } : {}),
      },
    };
  }
  if (typeof parsed.$$indexRemoved === 'string') return { kind: 'indexRemoved', key: parsed.$$indexRemoved };
  if (typeof parsed._id !== 'string') return undefined;
  return { kind: 'row', row: fromDisk(parsed) as Row };
}

const NEEDS_ESCAPE = /[%.]|^\$/;

function toDisk(value: unknown): unknown {
  if (value instanceof Date) return { $$date: value.getTime() };
  if (Array.isArray(value)) return value.map((element) => (element === undefined ? null : toDisk(element)));
  if (!isDocument(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const field = value[key];
    if (field === undefined) continue;
    out[NEEDS_ESCAPE.test(key) ? escapeKey(key) : key] = toDisk(field);
  }
  return out;
}

function fromDisk(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = fromDisk(value[i]);
    return value;
  }
  if (!isDocument(value)) return value;
  const date = value.$$date;
  if (typeof date === 'number' && Object.keys(value).length === 1) return new Date(date);
  let escaped = false;
  for (const key in value) {
    value[key] = fromDisk(value[key]);
    if (key.includes('%')) escaped = true;
  }
  if (!escaped) return value;
  // Rebuilt rather than renamed in place, to keep the field order.
  const out: Record<string, unknown> = {};
  for (const key in value) {
    out[unescapeKey(key)] = value[key];
  }
  return out;
}
