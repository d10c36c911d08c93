import type { FormatV2 } from '../../../../shared/api/v2/formats';
import {
  type AttributeValues,
  attributesWarnings,
  chooseMedia,
  noMediaWarning,
  type PageReads,
} from '../../derive';

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
