import { h, type ComponentChild } from 'preact';

/**
 * A titled table section: a heading that labels it, column headers, one row per entry, and
 * `empty` in place of the table when there are no rows. `idPrefix` keeps heading ids unique
 * across views.
 */
export function dataTable(
  title: string,
  columns: string[],
  rows: ComponentChild[][],
  { empty = 'None.', idPrefix = '' }: { empty?: string; idPrefix?: string } = {},
) {
  const id = `${idPrefix}${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h(
    'section',
    { 'aria-labelledby': id },
    h('h2', { id }, title),
    rows.length === 0
      ? h('p', null, empty)
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            null,
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                columns.map((column) => h('th', { scope: 'col' }, column)),
              ),
            ),
            h(
              'tbody',
              null,
              rows.map((row) =>
                h(
                  'tr',
                  null,
                  row.map((cell) => h('td', null, cell)),
                ),
              ),
            ),
          ),
        ),
  );
}
