import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { DocumentProblem } from '../document-problem';
import type { OpenZip } from '../zip/open-zip';
import { htmlDocument } from './html-text';
import { readDocumentProperties } from './read-document-properties';
import { walkXml } from './walk-xml';

const XML_PART = /\.(xml|rels)$/i;
/** Images of the document, which mammoth inlines as data URIs (removeBase64Images then applies, as for pages). */
const MEDIA_PART = /^word\/media\/[^/]+$/i;

/**
 * A DOCX document as HTML with mammoth. mammoth unzips by itself (with JSZip, without limits), so
 * it is handed a new archive of only the XML parts, each already inflated within the limits and
 * checked for a DOCTYPE and well-formedness, and the images: it never sees the uploaded archive or
 * its embedded objects, and never opens a linked file.
 */
export async function docxToHtml(zip: OpenZip, fallbackTitle: string): Promise<string> {
  const parts: Record<string, Uint8Array> = {};
  for (const entry of zip.entries) {
    const xml = XML_PART.test(entry.name);
    if ((!xml && !MEDIA_PART.test(entry.name)) || entry.name.endsWith('/')) continue;
    const bytes = zip.read(entry.name);
    if (bytes === undefined) continue;
    if (xml) walkXml(bytes, entry.name, {});
    parts[entry.name] = bytes;
  }
  if (
    parts['word/document.xml'] === undefined &&
    !Object.keys(parts).some((name) => name.endsWith('document.xml'))
  ) {
    throw new DocumentProblem('broken', 'the document part (word/document.xml) is missing');
  }
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(zipSync(parts, { level: 0 })) },
      {
        externalFileAccess: false,
        convertImage: mammoth.images.dataUri,
      },
    );
    html = result.value;
  } catch (err) {
    throw new DocumentProblem('broken', (err as Error).message);
  }
  const properties = readDocumentProperties(zip);
  return htmlDocument(html, { ...properties, title: properties.title ?? fallbackTitle });
}
