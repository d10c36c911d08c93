import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { callJson, type WhoAmI } from './api';
import { dataTable } from './data-table';
import { timeOf } from './format';
import { href } from './use-hash-route';

interface SessionItem {
  id: string;
  status: string;
  createdAt: string;
  lastActivity: string;
}

/**
 * The team's browser sessions (`GET /v2/browser`), running and ended (for a day), each linking to
 * its replay (replay-view.ts). Sessions belong to a team: the admin key sees none.
 */
export function SessionsView({ who }: { who: WhoAmI }) {
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const [notice, setNotice] = useState('');

  useEffect(() => {
    if (who.admin) return;
    void callJson<{ sessions: SessionItem[] }>('/v2/browser').then(
      (body) => setSessions(body.sessions),
      (err: unknown) => setNotice(String(err)),
    );
  }, [who.admin]);

  if (who.admin)
    return h(
      'section',
      null,
      h('h1', null, 'Browser sessions'),
      h(
        'p',
        null,
        "Sessions belong to a team: sign in with one of the team's API keys to see and replay them.",
      ),
    );
  return h(
    'div',
    null,
    h('h1', null, 'Browser sessions'),
    notice === '' ? null : h('p', { role: 'alert' }, notice),
    sessions === null
      ? h('p', { role: 'status' }, 'Loading the sessions…')
      : dataTable(
          'Sessions',
          ['Session', 'Status', 'Started', 'Last activity'],
          sessions.map((session) => [
            h('a', { href: href('sessions', session.id) }, session.id),
            session.status,
            timeOf(session.createdAt),
            timeOf(session.lastActivity),
          ]),
          { empty: 'No sessions in the last day.', idPrefix: 'sessions-' },
        ),
  );
}
