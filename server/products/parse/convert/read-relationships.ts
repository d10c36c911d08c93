import { posix } from 'node:path';
import type { OpenZip } from '../zip/open-zip';
import { attribute, walkXml } from './walk-xml';

export interface Relationship {
  /** The target part's name in the archive (resolved, without a leading slash). */
  target: string;
  type: string;
  external: boolean;
}

/**
 * The relationships of an OOXML part (`xl/workbook.xml` → `xl/_rels/workbook.xml.rels`), by id,
 * with targets resolved against the part's folder (ECMA-376 Part 2, §9.3).
 */
export function readRelationships(zip: OpenZip, part: string): Map<string, Relationship> {
  const folder = posix.dirname(part);
  const relsPart = posix.join(folder === '.' ? '' : folder, '_rels', `${posix.basename(part)}.rels`);
  const relationships = new Map<string, Relationship>();
  const bytes = zip.read(relsPart);
  if (bytes === undefined) return relationships;
  walkXml(bytes, relsPart, {
    open(name, attributes) {
      const id = attribute(attributes, 'Id');
      const target = attribute(attributes, 'Target');
      if (name !== 'Relationship' || id === undefined || target === undefined) return;
      const external = attribute(attributes, 'TargetMode') === 'External';
      relationships.set(id, {
        target: external ? target : resolvePartName(part === '' ? '' : folder, target),
        type: attribute(attributes, 'Type') ?? '',
        external,
      });
    },
  });
  return relationships;
}

/** The main part of an OOXML package, from its root relationships (`_rels/.rels`), or `fallback`. */
export function mainPart(zip: OpenZip, fallback: string): string {
  for (const relationship of readRelationships(zip, '').values()) {
    if (relationship.type.endsWith('/officeDocument') && zip.has(relationship.target))
      return relationship.target;
  }
  return fallback;
}

function resolvePartName(folder: string, target: string): string {
  const joined = target.startsWith('/') ? target : posix.join(folder === '.' ? '' : folder, target);
  return posix.normalize(joined).replace(/^\/+/, '');
}
