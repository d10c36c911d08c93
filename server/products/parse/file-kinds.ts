/** The kinds of document `/v2/parse` converts. */
export type FileKind =
  'pdf' | 'docx' | 'xlsx' | 'pptx' | 'ods' | 'html' | 'markdown' | 'csv' | 'tsv' | 'text' | 'image';

export interface FileKindInfo {
  /** What messages call it. */
  label: string;
  /** `metadata.contentType` of its documents. */
  mimeType: string;
  extensions: readonly string[];
  /** Content types a client may declare for it, besides `mimeType`. */
  otherMimeTypes: readonly string[];
}

/** The supported kinds; GET /v2/parse/formats lists them. */
export const FILE_KINDS: Readonly<Record<FileKind, FileKindInfo>> = {
  pdf: { label: 'PDF document', mimeType: 'application/pdf', extensions: ['.pdf'], otherMimeTypes: [] },
  docx: {
    label: 'Word document (DOCX)',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['.docx', '.docm'],
    otherMimeTypes: ['application/vnd.ms-word.document.macroenabled.12'],
  },
  xlsx: {
    label: 'Excel workbook (XLSX)',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['.xlsx', '.xlsm'],
    otherMimeTypes: ['application/vnd.ms-excel.sheet.macroenabled.12'],
  },
  pptx: {
    label: 'PowerPoint presentation (PPTX)',
    mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    extensions: ['.pptx', '.pptm'],
    otherMimeTypes: ['application/vnd.ms-powerpoint.presentation.macroenabled.12'],
  },
  ods: {
    label: 'OpenDocument spreadsheet (ODS)',
    mimeType: 'application/vnd.oasis.opendocument.spreadsheet',
    extensions: ['.ods'],
    otherMimeTypes: [],
  },
  html: {
    label: 'HTML document',
    mimeType: 'text/html',
    extensions: ['.html', '.htm', '.xhtml'],
    otherMimeTypes: ['application/xhtml+xml'],
  },
  markdown: {
    label: 'Markdown document',
    mimeType: 'text/markdown',
    extensions: ['.md', '.markdown', '.mdown', '.mkd'],
    otherMimeTypes: ['text/x-markdown'],
  },
  csv: {
    label: 'CSV table',
    mimeType: 'text/csv',
    extensions: ['.csv'],
    otherMimeTypes: ['application/csv'],
  },
  tsv: {
    label: 'TSV table',
    mimeType: 'text/tab-separated-values',
    extensions: ['.tsv', '.tab'],
    otherMimeTypes: [],
  },
  text: {
    label: 'plain text',
    mimeType: 'text/plain',
    extensions: ['.txt', '.text', '.log'],
    otherMimeTypes: [],
  },
  // Read with OCR (the "image" parser); an image's own type is its document's contentType.
  image: {
    label: 'image',
    mimeType: 'image/png',
    extensions: ['.png', '.jpg', '.jpeg', '.gif', '.bmp', '.tif', '.tiff', '.webp'],
    otherMimeTypes: ['image/jpeg', 'image/gif', 'image/bmp', 'image/x-ms-bmp', 'image/tiff', 'image/webp'],
  },
};

/** Kinds whose content is text: any of them may hold what looks like another (a .md that starts with HTML). */
export const TEXT_KINDS: ReadonlySet<FileKind> = new Set(['html', 'markdown', 'csv', 'tsv', 'text']);

/** Document types a client may name that are not converted, for a clear 415. */
export const UNSUPPORTED_TYPES: ReadonlyArray<{ label: string; extensions: string[]; mimeTypes: string[] }> =
  [
    { label: 'legacy Word document (.doc)', extensions: ['.doc', '.dot'], mimeTypes: ['application/msword'] },
    { label: 'legacy Excel workbook (.xls)', extensions: ['.xls'], mimeTypes: ['application/vnd.ms-excel'] },
    {
      label: 'legacy PowerPoint presentation (.ppt)',
      extensions: ['.ppt'],
      mimeTypes: ['application/vnd.ms-powerpoint'],
    },
    {
      label: 'OpenDocument text (.odt)',
      extensions: ['.odt'],
      mimeTypes: ['application/vnd.oasis.opendocument.text'],
    },
    {
      label: 'OpenDocument presentation (.odp)',
      extensions: ['.odp'],
      mimeTypes: ['application/vnd.oasis.opendocument.presentation'],
    },
    { label: 'RTF document (.rtf)', extensions: ['.rtf'], mimeTypes: ['application/rtf', 'text/rtf'] },
    { label: 'EPUB book (.epub)', extensions: ['.epub'], mimeTypes: ['application/epub+zip'] },
    {
      label: 'zip archive',
      extensions: ['.zip'],
      mimeTypes: ['application/zip', 'application/x-zip-compressed'],
    },
  ];
