import { connectionLabel } from '../../hub/connection-label';
import type { UiStatus } from '../../ui/ui-messages';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Shows the connection part of a status: state, server, team, the problem, and which form fits. */
export function showConnection(status: UiStatus): void {
  const state = byId('connection-state');
  const label = connectionLabel(status);
  // aria-live announces changes only; rewriting the same words every poll would say nothing new anyway.
  if (state.textContent !== label) state.textContent = label;
  state.dataset.state = status.state;

  const joined = status.state !== 'unpaired';
  byId('connection-facts').hidden = !joined || status.serverUrl === undefined;
  byId('fact-server').textContent = status.serverUrl ?? '';
  byId('fact-team').textContent = status.team ?? (status.origin === 'launched' ? 'the server’s pool' : '—');

  const problem = byId('connection-problem');
  const message = status.problem?.message ?? '';
  problem.hidden = message === '';
  if (problem.textContent !== message) problem.textContent = message;

  const launched = status.origin === 'launched';
  byId('launched-note').hidden = !launched;
  // A pool browser is the server's, and a person does not pair it; a paired one pairs again only
  // once the team revoked it (a new code replaces the old pairing).
  byId('pair-form').hidden = joined && status.origin !== undefined && status.problem?.code !== 'revoked';
  byId('paired-actions').hidden = status.origin !== 'paired';
  const serverUrl = byId<HTMLInputElement>('server-url');
  if (serverUrl.value === '' && status.serverUrl !== undefined && document.activeElement !== serverUrl) {
    serverUrl.value = status.serverUrl;
  }
}
