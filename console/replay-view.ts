import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import rrwebPlayer from 'rrweb-player';
import { callJson } from './api';
import { href } from './use-hash-route';

interface ReplayPage {
  pageId: string;
  pageUrl: string;
  startTimeMs: number;
  endTimeMs: number;
}
type PlayerEvents = ConstructorParameters<typeof rrwebPlayer>[0]['props']['events'];

/** rrweb-player's own stylesheet, copied beside the console's by console/build-console.mjs. */
const PLAYER_CSS = '/console/assets/replay-player.css';

function usePlayerStylesheet() {
  useEffect(() => {
    if (document.querySelector(`link[href="${PLAYER_CSS}"]`) !== null) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = PLAYER_CSS;
    document.head.append(link);
  }, []);
}

/** Plays one page's rrweb events with rrweb-player inside the element it renders. */
function Player({ events }: { events: PlayerEvents }) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (target.current === null) return;
    const player = new rrwebPlayer({
      target: target.current,
      props: { events, width: 960, height: 540, autoPlay: false },
    });
    // A Svelte component: $destroy removes it and its listeners (its types come without svelte's).
    return () => (player as unknown as { $destroy(): void }).$destroy();
  }, [events]);
  return h('div', { ref: target, class: 'replay-player', 'data-testid': 'replay-player' });
}

/**
 * A browser session's replay (docs/browser-sessions.md#replay): its recorded pages, and the chosen
 * page played with rrweb-player. The page's own styles and pictures are limited by the console's
 * Content Security Policy (no inline styles, no images from elsewhere).
 */
export function ReplayView({ id }: { id: string }) {
  usePlayerStylesheet();
  const [pages, setPages] = useState<ReplayPage[] | null>(null);
  const [pageId, setPageId] = useState<string | null>(null);
  const [events, setEvents] = useState<PlayerEvents | null>(null);
  const [notice, setNotice] = useState('');
  const base = `/v2/browser/${encodeURIComponent(id)}/replay`;

  useEffect(() => {
    void callJson<{ pages: ReplayPage[] }>(base).then(
      (body) => {
        setPages(body.pages);
        setPageId(body.pages[0]?.pageId ?? null);
      },
      (err: unknown) => setNotice(String(err)),
    );
  }, [id]);

  useEffect(() => {
    if (pageId === null) return;
    setEvents(null);
    void callJson<{ events: PlayerEvents }>(`${base}/${pageId}`).then(
      (body) => setEvents(body.events),
      (err: unknown) => setNotice(String(err)),
    );
  }, [pageId]);

  return h(
    'div',
    null,
    h('p', null, h('a', { href: href('sessions') }, '← Sessions')),
    h('h1', null, `Replay of session ${id}`),
    notice === '' ? null : h('p', { role: 'alert' }, notice),
    pages === null
      ? h('p', { role: 'status' }, 'Loading the replay…')
      : pages.length === 0
        ? h('p', null, 'Nothing was recorded in this session.')
        : h(
            'div',
            null,
            h(
              'label',
              null,
              'Page ',
              h(
                'select',
                {
                  value: pageId ?? '',
                  onChange: (event: Event) => setPageId((event.target as HTMLSelectElement).value),
                },
                pages.map((page) => h('option', { value: page.pageId }, `${page.pageId}: ${page.pageUrl}`)),
              ),
            ),
            events === null
              ? h('p', { role: 'status' }, 'Loading the page…')
              : events.length < 2
                ? h('p', null, 'This page recorded too little to play.')
                : h(Player, { events }),
          ),
  );
}
