import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { ScrapeDocument } from './console-types';
import { renderMarkdown } from './render-markdown';

type Tab = 'rendered' | 'markdown' | 'html' | 'screenshot' | 'json';
const TAB_NAMES: Record<Tab, string> = {
  rendered: 'Rendered',
  markdown: 'Markdown',
  html: 'HTML',
  screenshot: 'Screenshot',
  json: 'JSON',
};

/** One result document in tabs: rendered Markdown, raw Markdown, HTML, screenshot, the whole JSON. */
export function DocumentViewer({ document, idPrefix }: { document: ScrapeDocument; idPrefix: string }) {
  const tabs = (Object.keys(TAB_NAMES) as Tab[]).filter((tab) => {
    if (tab === 'rendered' || tab === 'markdown') return typeof document.markdown === 'string';
    if (tab === 'html') return typeof document.html === 'string' || typeof document.rawHtml === 'string';
    if (tab === 'screenshot') return typeof document.screenshot === 'string';
    return true;
  });
  const [chosen, setChosen] = useState<Tab>(tabs[0] ?? 'json');
  const tab = tabs.includes(chosen) ? chosen : (tabs[0] ?? 'json');

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length] ?? tab;
    setChosen(next);
    window.document.getElementById(`${idPrefix}-tab-${next}`)?.focus();
  };

  return h(
    'div',
    { class: 'viewer' },
    h(
      'div',
      { role: 'tablist', 'aria-label': 'Result formats', onKeyDown },
      tabs.map((name) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            id: `${idPrefix}-tab-${name}`,
            'aria-selected': name === tab ? 'true' : 'false',
            'aria-controls': `${idPrefix}-panel`,
            tabIndex: name === tab ? 0 : -1,
            onClick: () => setChosen(name),
          },
          TAB_NAMES[name],
        ),
      ),
    ),
    h(
      'div',
      {
        role: 'tabpanel',
        id: `${idPrefix}-panel`,
        'aria-labelledby': `${idPrefix}-tab-${tab}`,
        tabIndex: 0,
        class: `panel panel-${tab}`,
      },
      panel(tab, document),
    ),
  );
}

function panel(tab: Tab, document: ScrapeDocument) {
  switch (tab) {
    case 'rendered':
      return h('div', {
        class: 'markdown',
        dangerouslySetInnerHTML: { __html: renderMarkdown(document.markdown ?? '') },
      });
    case 'markdown':
      return h('pre', null, document.markdown ?? '');
    case 'html':
      return h('pre', null, document.html ?? document.rawHtml ?? '');
    case 'screenshot':
      return h('img', {
        src: document.screenshot?.startsWith('data:image/') ? document.screenshot : '',
        alt: `Screenshot of ${String(document.metadata?.['sourceURL'] ?? 'the page')}`,
      });
    case 'json':
      return h('pre', null, JSON.stringify(document, null, 2));
  }
}
