import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { whenUnauthorized, whoAmI, type WhoAmI } from './api';
import { BrowsersView } from './browsers-view';
import { JobView } from './job-view';
import { JobsView } from './jobs-view';
import { OverviewView } from './overview-view';
import { PlaygroundView } from './playground-view';
import { ReplayView } from './replay-view';
import { forgetKey, readKey } from './session-key';
import { SessionsView } from './sessions-view';
import { SignIn } from './sign-in';
import { UsageView } from './usage-view';
import { href, useHashRoute } from './use-hash-route';

const SECTIONS = [
  ['overview', 'Overview'],
  ['jobs', 'Jobs'],
  ['playground', 'Playground'],
  ['browsers', 'Browsers'],
  ['sessions', 'Sessions'],
  ['usage', 'Usage'],
] as const;

/** The console: sign-in, then a section per part of the issue, chosen by the address's fragment. */
export function App() {
  const [who, setWho] = useState<WhoAmI | null>(null);
  const [checking, setChecking] = useState(readKey() !== null);
  const route = useHashRoute();

  useEffect(() => {
    whenUnauthorized(() => setWho(null));
    if (readKey() === null) return;
    whoAmI()
      .then(setWho, () => forgetKey())
      .finally(() => setChecking(false));
  }, []);

  if (checking) return h('p', { role: 'status' }, 'Checking the API key…');
  if (who === null) return h(SignIn, { onSignedIn: setWho });

  const section = route[0] ?? 'overview';
  const signOut = () => {
    forgetKey();
    setWho(null);
  };
  return h(
    'div',
    { class: 'shell' },
    h('a', { class: 'skip', href: '#main-content' }, 'Skip to content'),
    h(
      'header',
      { class: 'top' },
      h('span', { class: 'brand' }, 'Tabhive'),
      h(
        'nav',
        { 'aria-label': 'Sections' },
        SECTIONS.map(([id, label]) =>
          h('a', { href: href(id), 'aria-current': section === id ? 'page' : undefined }, label),
        ),
      ),
      h(
        'span',
        { class: 'who', 'data-testid': 'who' },
        who.admin ? 'Admin (every team)' : `Team ${who.team?.name ?? ''}`,
      ),
      h('button', { type: 'button', class: 'link', onClick: signOut }, 'Sign out'),
    ),
    h('main', { id: 'main-content', tabIndex: -1 }, view(section, route, who)),
  );
}

function view(section: string, route: string[], who: WhoAmI) {
  switch (section) {
    case 'jobs':
      return route[1] === undefined ? h(JobsView, { who }) : h(JobView, { id: route[1], who });
    case 'playground':
      return h(PlaygroundView, { who });
    case 'browsers':
      return h(BrowsersView, { who });
    case 'sessions':
      return route[1] === undefined ? h(SessionsView, { who }) : h(ReplayView, { id: route[1] });
    case 'usage':
      return h(UsageView, { who });
    default:
      return h(OverviewView, { who });
  }
}
