import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { callJson, type WhoAmI } from './api';
import { browserDetails } from './browser-details';
import { dataTable } from './data-table';
import type { ConsoleBrowser } from './console-types';
import { timeOf } from './format';

interface DonatedBrowser {
  id: string;
  label: string;
  allowedDomains: string[];
  connected: boolean;
  lastSeenAt: string | null;
  revokedAt: string | null;
}
/** A proxy of the pool (PROXY_POOL), as /console/api/proxies shows it: no URL, no credentials. */
interface PoolProxy {
  id: string;
  protocol: string;
  country: string | null;
  healthy: boolean;
  successes: number;
  failures: number;
  blocked: number;
  lastError: string | null;
}
interface NodeToken {
  id: string;
  label: string;
  team: string | null;
  lastSeenAt: string | null;
  revokedAt: string | null;
}

/**
 * Connected browsers by team and class with their tabs in use, extension version, running tasks
 * and recent failures; a team's paired (donated) browsers, which it can revoke; for the admin,
 * the browser node tokens and any connected donated browser, which it can revoke, and the proxy
 * pool's proxies with their health and counts.
 */
export function BrowsersView({ who }: { who: WhoAmI }) {
  const [browsers, setBrowsers] = useState<ConsoleBrowser[] | null>(null);
  const [donated, setDonated] = useState<DonatedBrowser[] | null>(null);
  const [tokens, setTokens] = useState<NodeToken[] | null>(null);
  const [proxies, setProxies] = useState<PoolProxy[] | null>(null);
  const [notice, setNotice] = useState('');

  const load = () => {
    void callJson<{ data: ConsoleBrowser[] }>('/console/api/browsers').then(
      (body) => setBrowsers(body.data),
      (err: unknown) => setNotice(String(err)),
    );
    if (!who.admin)
      void callJson<{ browsers: DonatedBrowser[] }>('/tabhive/v1/browsers').then(
        (body) => setDonated(body.browsers),
        () => setDonated(null),
      );
    else {
      void callJson<{ data: NodeToken[] }>('/admin/v1/node-tokens').then(
        (body) => setTokens(body.data),
        () => setTokens(null),
      );
      void callJson<{ data: PoolProxy[] }>('/console/api/proxies').then(
        (body) => setProxies(body.data.length === 0 ? null : body.data),
        () => setProxies(null),
      );
    }
  };
  useEffect(() => {
    load();
    const timer = window.setInterval(load, 3_000);
    return () => window.clearInterval(timer);
  }, []);

  const revoke = async (what: string, path: string) => {
    if (!confirm(`Revoke ${what}? It is disconnected and cannot come back without a new pairing or token.`))
      return;
    try {
      await callJson(path, { method: 'DELETE' });
      setNotice(`Revoked ${what}.`);
      load();
    } catch (err) {
      setNotice(`Could not revoke ${what}: ${String(err)}`);
    }
  };

  return h(
    'section',
    { 'aria-labelledby': 'browsers-title' },
    h('h1', { id: 'browsers-title' }, 'Browsers'),
    h('p', { role: 'status' }, notice),
    browsers === null
      ? h('p', null, 'Loading…')
      : dataTable(
          'Connected browsers',
          [
            'Browser',
            'Kind',
            'Class',
            'Team',
            'Version',
            'Tabs in use',
            'Tasks done',
            'Failures',
            'Windows',
            'Details',
          ],
          browsers.map((browser) => [
            h('code', null, browser.id.slice(0, 12)),
            browser.kind + (browser.draining ? ' (draining)' : ''),
            browser.browserClass,
            browser.teamId ?? 'shared pool',
            browser.extensionVersion ?? '–',
            `${browser.tabsInUse} of ${browser.tabs}`,
            String(browser.tasksDone),
            String(browser.recentFailureCount),
            browser.windows === null ? '–' : String(browser.windows),
            h(
              'div',
              null,
              browserDetails(browser),
              who.admin && browser.kind === 'donated' && browser.teamId !== null
                ? h(
                    'button',
                    {
                      type: 'button',
                      'aria-label': `Revoke browser ${browser.id.slice(0, 12)}`,
                      onClick: () =>
                        void revoke(
                          `the donated browser ${browser.id.slice(0, 12)} of team ${browser.teamId}`,
                          `/admin/v1/teams/${encodeURIComponent(browser.teamId ?? '')}/browsers/${encodeURIComponent(browser.id)}`,
                        ),
                    },
                    'Revoke',
                  )
                : null,
            ),
          ]),
        ),
    donated === null
      ? null
      : dataTable(
          'Paired browsers of your team',
          ['Label', 'Domains', 'Connected', 'Last seen', ''],
          donated.map((browser) => [
            browser.label,
            browser.allowedDomains.join(', '),
            browser.connected ? 'yes' : 'no',
            timeOf(browser.lastSeenAt),
            browser.revokedAt !== null
              ? 'revoked'
              : h(
                  'button',
                  {
                    type: 'button',
                    onClick: () =>
                      void revoke(
                        `the browser "${browser.label}"`,
                        `/tabhive/v1/browsers/${encodeURIComponent(browser.id)}`,
                      ),
                  },
                  'Revoke',
                ),
          ]),
        ),
    proxies === null
      ? null
      : dataTable(
          'Proxy pool',
          ['Proxy', 'Protocol', 'Country', 'Health', 'Successes', 'Failures', 'Blocked'],
          proxies.map((proxy) => [
            h('code', null, proxy.id),
            proxy.protocol,
            proxy.country ?? '–',
            proxy.healthy ? 'healthy' : `unhealthy${proxy.lastError === null ? '' : ` (${proxy.lastError})`}`,
            String(proxy.successes),
            String(proxy.failures),
            String(proxy.blocked),
          ]),
        ),
    tokens === null
      ? null
      : dataTable(
          'Browser node tokens',
          ['Token', 'Label', 'Team', 'Last seen', ''],
          tokens.map((token) => [
            h('code', null, token.id),
            token.label,
            token.team ?? 'shared pool',
            timeOf(token.lastSeenAt),
            token.revokedAt
              ? 'revoked'
              : h(
                  'button',
                  {
                    type: 'button',
                    onClick: () =>
                      void revoke(
                        `the node token ${token.id}`,
                        `/admin/v1/node-tokens/${encodeURIComponent(token.id)}`,
                      ),
                  },
                  'Revoke',
                ),
          ]),
        ),
  );
}
