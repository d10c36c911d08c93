import type TurndownService from 'turndown';

interface TableShape {
  /** The row written as the GFM header; undefined when the table gets an empty one. */
  headerRow: Element | undefined;
  columnCount: number;
  /** Tables used for page layout are unwrapped into blocks rather than made into GFM tables. */
  layout: boolean;
}

const EMPTY_CELL = '  |';
const SEPARATOR_CELL = ' --- |';
const ALIGNMENT: Readonly<Record<string, string>> = { left: ':--', right: '--:', center: ':-:' };

/**
 * GFM tables. turndown-plugin-gfm's table rules read `table.rows`, which linkedom does not
 * implement, and keep tables without a `<th>` row as raw HTML. These rules make every data table a
 * GFM table: the first row is the header, except in key/value tables whose rows each start with a
 * `<th>`, which get an empty header instead of a false one. The header is padded to the widest row
 * (GFM drops cells beyond the header's count) and colspan is honoured. Tables that nest tables, are
 * marked presentational or have a single column are layout: their cells become ordinary blocks.
 */
export function gfmTables(service: TurndownService): void {
  // Turndown calls the rules for every cell and row; measure each table once.
  const shapes = new WeakMap<Element, TableShape>();
  /** The shape of the data table `element` belongs to; undefined for layout tables. */
  const dataTable = (element: Element): TableShape | undefined => {
    const table = element.localName === 'table' ? element : element.closest('table');
    if (!table) return undefined;
    let shape = shapes.get(table);
    if (!shape) {
      shape = measureTable(table);
      shapes.set(table, shape);
    }
    return shape.layout ? undefined : shape;
  };

  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      if (!dataTable(node)) return `\n\n${content}\n\n`;
      const text = content
        .trim()
        .replace(/\s*\n\s*/g, ' ')
        .replace(/\|/g, '\\|');
      return ` ${text} |${EMPTY_CELL.repeat(colspan(node) - 1)}`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const shape = dataTable(node);
      if (!shape) return `\n\n${content}\n\n`;
      if (node !== shape.headerRow) return `\n|${content}`;
      const separator: string[] = [];
      for (const cell of cellsOf(node)) {
        const alignment = ALIGNMENT[(cell.getAttribute('align') ?? '').toLowerCase()] ?? '---';
        separator.push(` ${alignment} |`, ...Array<string>(colspan(cell) - 1).fill(SEPARATOR_CELL));
      }
      const missing = Math.max(shape.columnCount - separator.length, 0);
      return `\n|${content}${EMPTY_CELL.repeat(missing)}\n|${separator.join('')}${SEPARATOR_CELL.repeat(missing)}`;
    },
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      const caption = Array.from(node.children)
        .find((child) => child.localName === 'caption')
        ?.textContent?.replace(/\s+/g, ' ')
        .trim();
      const before = caption ? `\n\n${caption}\n\n` : '\n\n';
      const shape = dataTable(node);
      if (!shape) return `${before}${content}\n\n`;
      // An empty <tr> converts to a blank line, which would end the table early.
      const rows = content.split('\n').filter((line) => line.trim() !== '');
      if (rows.length === 0) return '';
      if (!shape.headerRow) {
        rows.unshift(
          `|${EMPTY_CELL.repeat(shape.columnCount)}`,
          `|${SEPARATOR_CELL.repeat(shape.columnCount)}`,
        );
      }
      return `${before}${rows.join('\n')}\n\n`;
    },
  });
}

function measureTable(table: Element): TableShape {
  const rows = Array.from(table.querySelectorAll('tr')).filter(
    (row) => row.closest('table') === table && cellsOf(row).length > 0,
  );
  let columnCount = 0;
  for (const row of rows) columnCount = Math.max(columnCount, rowWidth(row));
  const role = table.getAttribute('role');
  const layout =
    role === 'presentation' || role === 'none' || columnCount <= 1 || table.querySelector('table') !== null;
  return { headerRow: isKeyValueTable(rows) ? undefined : rows[0], columnCount, layout };
}

/** Every row is a `<th>` naming the row followed by `<td>` values, as in a product's spec sheet. */
function isKeyValueTable(rows: readonly Element[]): boolean {
  return (
    rows.length > 0 &&
    rows.every((row) => {
      const [first, ...rest] = cellsOf(row);
      return first?.localName === 'th' && rest.length > 0 && rest.every((cell) => cell.localName === 'td');
    })
  );
}

function cellsOf(row: Element): Element[] {
  return Array.from(row.children).filter((child) => child.localName === 'td' || child.localName === 'th');
}

function rowWidth(row: Element): number {
  return cellsOf(row).reduce((sum, cell) => sum + colspan(cell), 0);
}

function colspan(cell: Element): number {
  const span = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
  // Browsers clamp colspan to 1..1000; a smaller cap keeps a hostile page from bloating the output.
  return Number.isFinite(span) ? Math.min(Math.max(span, 1), 100) : 1;
}
