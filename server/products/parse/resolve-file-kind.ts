import type { Declared } from './declared-file-kind';
import { FILE_KINDS, type FileKind, TEXT_KINDS } from './file-kinds';
import { parseErrors } from './parse-errors';
import type { Sniffed } from './sniff-content';

const SUPPORTED =
  'PDF, DOCX, XLSX, PPTX, ODS, HTML, Markdown, CSV/TSV, plain text and images (PNG, JPEG, GIF, BMP, TIFF, WebP)';

/**
 * The kind an upload is converted as: what its content is, provided that the name and type the
 * client gave agree. Text kinds agree with any text (a .md file may open with HTML, a .txt file
 * may hold a page's source); binary kinds only with themselves. Anything else is a 415 that says
 * what the content was found to be.
 */
export function resolveFileKind(declared: Declared, sniffed: Sniffed): FileKind {
  if (sniffed.kind === 'other') {
    throw parseErrors.unsupportedFileType(
      `The uploaded file was detected as ${sniffed.label} (${sniffed.mimeType}), which parse does not convert. Supported: ${SUPPORTED}.`,
      sniffed.mimeType,
    );
  }
  if (declared.kind === 'unsupported') {
    throw parseErrors.unsupportedFileType(
      `The uploaded file is declared by ${declared.by} as ${declared.label}, which parse does not convert; ` +
        `its content was detected as ${sniffed.label} (${sniffed.mimeType}). Name the file after its content, or send one of: ${SUPPORTED}.`,
      sniffed.mimeType,
    );
  }
  if (declared.kind === 'none') return sniffed.kind;
  const agrees =
    declared.kind === sniffed.kind ||
    (TEXT_KINDS.has(declared.kind) && (sniffed.kind === 'text' || sniffed.kind === 'html'));
  if (!agrees) {
    throw parseErrors.unsupportedFileType(
      `The uploaded file is declared by ${declared.by} as ${FILE_KINDS[declared.kind].label}, ` +
        `but its content was detected as ${sniffed.label} (${sniffed.mimeType}).`,
      sniffed.mimeType,
    );
  }
  return declared.kind;
}
