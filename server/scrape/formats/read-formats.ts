import type { FormatV2 } from '../../../shared/api/v2/formats';
import { type AttributeValues, attributesWarnings } from './attributes-format';
import { chooseMedia, noMediaWarning } from './media-formats';
import type { PageReads } from './page-reads';

/** The formats readFormats answers: read from the page's HTML in the derivation worker, no text or model. */
export const READ_FORMATS = new Set<string>(['attributes', 'audio', 'video']);

export interface ReadFormats {
  attributes?: AttributeValues[];
  audio?: string;
  video?: string;
  warnings: string[];
}

/**
 * The attributes, audio and video formats from what the derivation worker read of the page
 * (page-reads.ts): no model and no text needed. Media the page does not name is left out with a
 * warning, never guessed.
 */
export function readFormats(formats: readonly FormatV2[], reads: PageReads | undefined): ReadFormats {
  const out: ReadFormats = { warnings: [] };
  for (const format of formats) {
    if (format.type === 'attributes' && reads?.attributes !== undefined) {
      out.attributes = reads.attributes.attributes;
      out.warnings.push(...attributesWarnings(reads.attributes));
    } else if (format.type === 'audio' || format.type === 'video') {
      const candidates = reads?.media?.[format.type] ?? [];
      const url = chooseMedia(candidates);
      if (url === undefined) out.warnings.push(noMediaWarning(format.type, candidates));
      else out[format.type] = url;
    }
  }
  return out;
}
