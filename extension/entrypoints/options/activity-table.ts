import type { ActivityEntry } from '../../ui/ui-messages';

const OUTCOME_WORDS: Record<ActivityEntry['outcome'], string> = {
  ok: 'Done',
  failed: 'Failed',
  refused: 'Refused',
};

/** Renders the activity log as a table, or says there is nothing in it yet. */
export function showActivity(entries: readonly ActivityEntry[]): void {
  const table = document.getElementById('activity') as HTMLTableElement;
  const empty = document.getElementById('activity-empty') as HTMLElement;
  const body = table.tBodies[0] as HTMLTableSectionElement;
  table.hidden = entries.length === 0;
  empty.hidden = entries.length !== 0;
  body.replaceChildren(...entries.map(activityRow));
}

function activityRow(entry: ActivityEntry): HTMLTableRowElement {
  const row = document.createElement('tr');

  const when = document.createElement('time');
  const date = new Date(entry.time);
  when.dateTime = date.toISOString();
  when.textContent = date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

  const outcome = document.createElement('td');
  outcome.className = 'outcome';
  outcome.dataset.outcome = entry.outcome;
  outcome.textContent = OUTCOME_WORDS[entry.outcome];
  if (entry.detail !== undefined) {
    const detail = document.createElement('small');
    detail.textContent = entry.detail;
    outcome.append(detail);
  }

  row.append(cell(when), cell(entry.url, 'page'), cell(entry.team), outcome);
  return row;
}

function cell(content: string | Node, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  if (className !== undefined) td.className = className;
  td.append(content);
  return td;
}
