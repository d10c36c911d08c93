import type { OpenZip } from '../zip/open-zip';
import type { DocumentProperties } from './html-text';
import { walkXml } from './walk-xml';

/** Where each family keeps its Dublin Core properties: OOXML's core part, ODF's meta part. */
const PROPERTY_PARTS = ['docProps/core.xml', 'meta.xml'];

const FIELDS: Record<string, keyof DocumentProperties> = {
  title: 'title',
  creator: 'author',
  'initial-creator': 'author',
  description: 'description',
};

/** The title, author and description a DOCX, XLSX, PPTX or ODF file declares, where it does. */
export function readDocumentProperties(zip: OpenZip): DocumentProperties {
  const part = PROPERTY_PARTS.find((name) => zip.has(name));
  const bytes = part === undefined ? undefined : zip.read(part);
  if (part === undefined || bytes === undefined) return {};
  const properties: DocumentProperties = {};
  let field: keyof DocumentProperties | undefined;
  let text = '';
  walkXml(bytes, part, {
    open(name) {
      field = FIELDS[name];
      text = '';
    },
    text(chunk) {
      if (field !== undefined) text += chunk;
    },
    close() {
      const value = text.trim();
      if (field !== undefined && value !== '' && properties[field] === undefined) properties[field] = value;
      field = undefined;
    },
  });
  return properties;
}
