import { isDocument } from './compare-values';

/**
 * Every value a dotted path reaches, with MongoDB's implicit array traversal: `a.b` looks into
 * each element of an array `a`, and a path ending on an array yields the array and its elements.
 * A path that reaches nothing yields `undefined` (missing), which a null equality matches.
 */
export function valuesAtPath(document: unknown, path: string): unknown[] {
  // Most paths the stores use are one top-level field: no split, no walk.
  if (!path.includes('.') && isDocument(document)) {
    const value = document[path];
    return Array.isArray(value) ? [value, ...(value as unknown[])] : [value];
  }
  const out: unknown[] = [];
  collect(document, path.split('.'), 0, out);
  return out;
}

function collect(value: unknown, parts: string[], at: number, out: unknown[]): void {
  if (at === parts.length) {
    out.push(value);
    if (Array.isArray(value)) out.push(...(value as unknown[]));
    return;
  }
  const head = parts[at] as string;
  if (Array.isArray(value)) {
    const before = out.length;
    if (/^\d+$/.test(head)) collect(value[Number(head)], parts, at + 1, out);
    for (const element of value) {
      if (isDocument(element)) collect(element, parts, at, out);
    }
    if (out.length === before) out.push(undefined);
    return;
  }
  collect(isDocument(value) ? value[head] : undefined, parts, at + 1, out);
}

/** The single value at a path, without array traversal (what `$inc` and `$push` act on). */
export function getAtPath(document: Record<string, unknown>, path: string): unknown {
  let node: unknown = document;
  for (const part of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (isDocument(node)) node = node[part];
    else return undefined;
  }
  return node;
}

/** Sets a value, creating missing parent documents; refuses to create a field inside a scalar. */
export function setAtPath(document: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: unknown = document;
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    if (Array.isArray(node) && /^\d+$/.test(part)) {
      const position = Number(part);
      while (node.length < position) node.push(null);
      if (last) node[position] = value;
      else node = node[position] === undefined ? (node[position] = {}) : node[position];
    } else if (isDocument(node)) {
      if (last) node[part] = value;
      else node = node[part] === undefined ? (node[part] = {}) : node[part];
    } else {
      throw new Error(
        `Cannot create field '${part}' in '${parts.slice(0, index).join('.')}' (not a document)`,
      );
    }
  }
}

/** Removes a field; inside an array the element becomes null, as MongoDB's $unset does. */
export function unsetAtPath(document: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  const last = parts.pop() as string;
  const parent = parts.length === 0 ? document : getAtPath(document, parts.join('.'));
  if (Array.isArray(parent) && /^\d+$/.test(last)) {
    if (Number(last) < parent.length) parent[Number(last)] = null;
  } else if (isDocument(parent)) {
    delete parent[last];
  }
}
