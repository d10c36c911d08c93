import { SaxesParser } from 'saxes';
import { DocumentProblem } from '../document-problem';

export interface XmlHandlers {
  /**
   * Element names come without their namespace prefix (`a:t` → `t`); attribute names keep theirs
   * (`r:id` and `id` can sit on one element): read them with {@link attribute}.
   */
  open?(name: string, attributes: Readonly<Record<string, string>>): void;
  close?(name: string): void;
  text?(text: string): void;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * An attribute by its local name: `attribute(a, 'id')` is `id`; `attribute(a, 'r:id')` is the `id`
 * of whatever prefix the writer bound to the relationships namespace.
 */
export function attribute(attributes: Readonly<Record<string, string>>, name: string): string | undefined {
  if (!name.includes(':')) return attributes[name];
  const local = `:${localName(name)}`;
  const key = Object.keys(attributes).find((key) => key.endsWith(local));
  return key === undefined ? undefined : attributes[key];
}

/**
 * Streams an XML part of a document through a strict, non-validating parser (saxes). Parts with a
 * DOCTYPE are refused before anything in them is read: OOXML and ODF never declare one, and a DTD
 * is how entity expansion attacks (billion laughs) and external entities (XXE) get in. saxes knows
 * only the five predefined entities and character references, so no other entity can expand.
 * Malformed XML is a broken document, named with the part and the parser's line and column.
 */
export function walkXml(bytes: Uint8Array, part: string, handlers: XmlHandlers): void {
  const parser = new SaxesParser({ position: true });
  const fail = (problem: string) =>
    new DocumentProblem('broken', `${part} is not well-formed XML (${problem})`);
  parser.on('doctype', () => {
    throw new DocumentProblem('broken', `${part} declares a DOCTYPE, which documents of this kind never do`);
  });
  parser.on('error', (err) => {
    throw fail(err.message);
  });
  if (handlers.open !== undefined) {
    const open = handlers.open;
    parser.on('opentag', (tag) => {
      const attributes: Record<string, string> = {};
      for (const [name, value] of Object.entries(tag.attributes)) {
        if (name !== 'xmlns' && !name.startsWith('xmlns:')) attributes[name] = value;
      }
      open(localName(tag.name), attributes);
    });
  }
  if (handlers.close !== undefined) {
    const close = handlers.close;
    parser.on('closetag', (tag) => close(localName(tag.name)));
  }
  if (handlers.text !== undefined) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  parser.write(decodeXml(bytes)).close();
}

/** XML text from bytes: UTF-16 by its byte order mark, UTF-8 otherwise (OOXML and ODF write either). */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
