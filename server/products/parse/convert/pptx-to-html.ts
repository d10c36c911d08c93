import type { OpenZip } from '../zip/open-zip';
import { DocumentProblem } from '../document-problem';
import { escapeHtml, htmlDocument, htmlTable } from './html-text';
import { readDocumentProperties } from './read-document-properties';
import { mainPart, readRelationships } from './read-relationships';
import { attribute, walkXml } from './walk-xml';

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
/** PowerPoint itself stops well before this. */
const MAX_SLIDES = 5_000;

/** The slides of a PPTX presentation in their order, each under a heading with its number and title. */
export function pptxToHtml(zip: OpenZip, fallbackTitle: string): string {
  const presentationPart = mainPart(zip, 'ppt/presentation.xml');
  const presentation = zip.read(presentationPart);
  if (presentation === undefined) {
    throw new DocumentProblem('broken', 'the presentation part (ppt/presentation.xml) is missing');
  }
  const relationships = readRelationships(zip, presentationPart);
  const slideParts: string[] = [];
  walkXml(presentation, presentationPart, {
    open(name, attributes) {
      if (name !== 'sldId') return;
      const target = relationships.get(attribute(attributes, 'r:id') ?? '');
      // A slide listed twice is read once: a list of one slide a million times is not a million slides.
      if (
        target === undefined ||
        target.external ||
        !zip.has(target.target) ||
        slideParts.includes(target.target)
      ) {
        return;
      }
      if (slideParts.length >= MAX_SLIDES) {
        throw new DocumentProblem('archive-limit', `the presentation has more than ${MAX_SLIDES} slides`);
      }
      slideParts.push(target.target);
    },
  });
  const slides = slideParts.map((part, index) => slideHtml(zip, part, index + 1));
  const properties = readDocumentProperties(zip);
  return htmlDocument(slides.join('\n'), { ...properties, title: properties.title ?? fallbackTitle });
}

/** One slide: its title placeholder's text in the heading, then its shapes' paragraphs and tables. */
function slideHtml(zip: OpenZip, part: string, number: number): string {
  const bytes = zip.read(part);
  if (bytes === undefined) return `<h2>Slide ${number}</h2>`;
  const titles: string[] = [];
  const blocks: string[] = [];
  let shapeIsTitle = false;
  let paragraph: string | undefined;
  let inText = false;
  let table: string[][] | undefined;
  let tableCell: string[] | undefined;

  walkXml(bytes, part, {
    open(name, attributes) {
      if (name === 'sp') shapeIsTitle = false;
      else if (name === 'ph') shapeIsTitle = TITLE_PLACEHOLDERS.has(attribute(attributes, 'type') ?? '');
      else if (name === 'tbl') table = [];
      else if (name === 'tr' && table !== undefined) table.push([]);
      else if (name === 'tc' && table !== undefined) tableCell = [];
      else if (name === 'p') paragraph = '';
      else if (name === 't' && paragraph !== undefined) inText = true;
      else if (name === 'br' && paragraph !== undefined) paragraph += '\n';
    },
    text(text) {
      if (inText && paragraph !== undefined) paragraph += text;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'p' && paragraph !== undefined) {
        const text = paragraph.trim();
        paragraph = undefined;
        if (text === '') return;
        if (tableCell !== undefined) tableCell.push(text);
        else if (shapeIsTitle) titles.push(text);
        else blocks.push(`<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`);
      } else if (name === 'tc' && table !== undefined && tableCell !== undefined) {
        table[table.length - 1]?.push(tableCell.join('\n'));
        tableCell = undefined;
      } else if (name === 'tbl' && table !== undefined) {
        if (table.some((row) => row.some((cell) => cell !== ''))) blocks.push(htmlTable(table));
        table = undefined;
      } else if (name === 'sp') shapeIsTitle = false;
    },
  });
  const title = titles.join(' ').replace(/\s+/g, ' ');
  return `<h2>Slide ${number}${title === '' ? '' : `: ${escapeHtml(title)}`}</h2>\n${blocks.join('\n')}`;
}
