/** A labelled value the page shows: "Price: €12", a definition list entry, a table row, a heading's section. */
export interface LabelledValue {
  text: string;
  /** List items under a heading, or the cells of a row: what an array property wants. */
  items: string[];
}

const MAX_LABEL_CHARS = 80;
const MAX_VALUE_CHARS = 2_000;
const INLINE_LABEL = /^([^:]{1,80}):\s+(.+)$/s;

const textOf = (element: Element | null | undefined) =>
  (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Lower-case letters and digits only, so `Release date`, `release_date` and `releaseDate` meet. */
export function normalizeLabel(label: string): string {
  return label.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The page's labelled values, keyed by normalised label, first occurrence wins: definition lists
 * (`dt` → `dd`), table rows (header or first cell → the rest), `Label: value` list items and
 * paragraphs, and headings (→ the text and list items up to the next heading). This is what the
 * json format matches schema property names against when there is no LLM.
 */
export function pageLabels(document: Document): Map<string, LabelledValue> {
  const labels = new Map<string, LabelledValue>();
  const add = (label: string, text: string, items: string[] = []) => {
    const key = normalizeLabel(label.replace(/:$/, ''));
    if (key === '' || label.length > MAX_LABEL_CHARS || labels.has(key)) return;
    if (text === '' && items.length === 0) return;
    labels.set(key, { text: text.slice(0, MAX_VALUE_CHARS), items });
  };
  const body = document.body;

  for (const term of Array.from(body.querySelectorAll('dt'))) {
    let next = term.nextElementSibling;
    const values: string[] = [];
    while (next !== null && next.localName === 'dd') {
      values.push(textOf(next));
      next = next.nextElementSibling;
    }
    add(textOf(term), values[0] ?? '', values);
  }
  for (const row of Array.from(body.querySelectorAll('tr'))) {
    const cells = Array.from(row.children).filter(
      (cell) => cell.localName === 'th' || cell.localName === 'td',
    );
    const [head, ...rest] = cells;
    if (head === undefined || rest.length === 0) continue;
    const values = rest.map(textOf);
    add(textOf(head), values.join(' '), values);
  }
  for (const element of Array.from(body.querySelectorAll('li, p'))) {
    const match = INLINE_LABEL.exec(textOf(element));
    if (match?.[1] !== undefined && match[2] !== undefined) add(match[1], match[2].trim());
  }
  for (const label of Array.from(body.querySelectorAll('label[for]'))) {
    const target = document.getElementById(label.getAttribute('for') ?? '');
    add(textOf(label), target?.getAttribute('value') ?? textOf(target));
  }
  for (const heading of Array.from(body.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const texts: string[] = [];
    const items: string[] = [];
    for (let next = heading.nextElementSibling; next !== null; next = next.nextElementSibling) {
      if (/^h[1-6]$/.test(next.localName)) break;
      if (next.localName === 'ul' || next.localName === 'ol') {
        items.push(...Array.from(next.querySelectorAll('li')).map(textOf));
      } else texts.push(textOf(next));
    }
    add(textOf(heading), texts.filter(Boolean).join(' '), items);
  }
  return labels;
}
