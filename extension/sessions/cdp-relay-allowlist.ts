import type { RelayContexts } from './cdp-relay-contexts';
import { RELAY_METHODS } from './cdp-relay-methods';

export { RELAY_ALLOWED_METHODS, RELAY_NO_OP_METHODS } from './cdp-relay-methods';

/**
 * The one check of every DevTools command a caller drives into a session's tab: the cdpUrl
 * relay's commands and the live view's input. Deny by default: a method passes only when it is in
 * the table (cdp-relay-methods.ts) and its parameters match that method's schema, no parameter
 * more; then every context id, unique context id, remote object id and world name it carries
 * must be one the client may reach (cdp-relay-contexts.ts). What passes may be rewritten:
 * `Page.createIsolatedWorld` never grants universal access (a world that reads every origin).
 * Navigations are checked further, with the network policy and a donor's fence, by
 * cdp-relay-navigation.ts. docs/cdp-relay-allowlist.md lists the methods and the reasons.
 */
export type RelayVerdict = { ok: true; params: Record<string, unknown> } | { ok: false; reason: string };

export interface RelayScope {
  /** The tab is in a person's own browser. */
  donated: boolean;
  contexts: Pick<RelayContexts, 'allowsContext' | 'allowsUniqueContext' | 'allowsWorldName'>;
}

/** Why whole groups of the protocol are not in the table, for the refusal's message. */
const REFUSED_DOMAINS: ReadonlyMap<string, string> = new Map([
  ['Target', 'it reaches other tabs and targets (the relay answers the connect handshake itself)'],
  ['Browser', 'it reaches the whole browser'],
  ['Storage', 'it reads and writes every origin’s storage and cookies'],
  ['DOMStorage', 'it reads and writes an origin’s storage outside the page'],
  ['IndexedDB', 'it reads and writes an origin’s storage outside the page'],
  ['CacheStorage', 'it reads and writes an origin’s storage outside the page'],
  ['Fetch', 'requests are never rewritten or answered on the page’s behalf'],
  ['IO', 'its handles can name more than the page’s own output'],
  ['Debugger', 'it pauses and evaluates in every world of the tab, the extension’s included'],
  ['Profiler', 'it observes every world of the tab'],
  ['HeapProfiler', 'it reads every world of the tab'],
  ['Memory', 'it reaches the browser process'],
  ['Tracing', 'it records the whole browser'],
  ['SystemInfo', 'it describes the machine'],
  ['Tethering', 'it opens ports on the machine'],
  ['ServiceWorker', 'it reaches workers beyond the page'],
  ['Extensions', 'it manages the browser’s extensions'],
  ['Security', 'certificate checks stay on'],
  ['Overlay', 'the live view owns what the tab shows'],
]);

/** Methods of allowed domains that are refused, and why (the rest of a domain: not needed). */
const REFUSED_METHODS: ReadonlyMap<string, string> = new Map([
  ['DOM.setFileInputFiles', 'it reads files of the browser’s machine into the page'],
  ['DOM.getFileInfo', 'it reveals paths of the browser’s machine'],
  ['Page.setDownloadBehavior', 'downloads to disk are not available'],
  ['Page.close', 'the session ends through DELETE /v2/browser/:id'],
  ['Page.crash', 'the session ends through DELETE /v2/browser/:id'],
  ['Page.startScreencast', 'the live view owns the screencast'],
  ['Page.stopScreencast', 'the live view owns the screencast'],
  ['Page.screencastFrameAck', 'the live view owns the screencast'],
  ['Network.getAllCookies', 'it reads every site’s cookies'],
  ['Network.clearBrowserCookies', 'it clears every site’s cookies'],
  ['Network.clearBrowserCache', 'it clears the whole browser’s cache'],
  ['Network.loadNetworkResource', 'it fetches with the browser’s credentials outside the page'],
  ['Network.setRequestInterception', 'requests are never rewritten or answered on the page’s behalf'],
  ['Runtime.queryObjects', 'it collects objects across the page’s heap'],
  ['Runtime.compileScript', 'code runs through Runtime.evaluate and Runtime.callFunctionOn'],
  ['Runtime.runScript', 'code runs through Runtime.evaluate and Runtime.callFunctionOn'],
]);

/** The keys under which the protocol carries context ids, unique ids, object ids, world names. */
const CONTEXT_KEYS = new Set(['contextId', 'executionContextId']);
const OBJECT_KEYS = new Set(['objectId', 'promiseObjectId', 'prototypeObjectId']);

const refusal = (method: string, why: string): RelayVerdict => ({
  ok: false,
  reason: `${method} is not available through a browser session's cdpUrl: ${why}`,
});

/** Decides one command; `params` is what the client sent (anything). */
export function checkRelayCommand(method: string, params: unknown, scope: RelayScope): RelayVerdict {
  const entry = RELAY_METHODS.get(method);
  if (entry === undefined) {
    const domain = method.split('.')[0] ?? '';
    return refusal(
      method,
      REFUSED_METHODS.get(method) ??
        REFUSED_DOMAINS.get(domain) ??
        'it is not on the relay’s allowlist (docs/cdp-relay-allowlist.md)',
    );
  }
  if (scope.donated && entry.refusedOnDonated !== undefined) return refusal(method, entry.refusedOnDonated);
  const parsed = entry.params.safeParse(params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'params';
    return refusal(method, `${where}: ${issue?.message ?? 'invalid'}`);
  }
  const unreachable = unreachableReference(parsed.data, scope);
  if (unreachable !== undefined) return refusal(method, unreachable);
  const checked = { ...parsed.data };
  if (method === 'Page.createIsolatedWorld') checked['grantUniveralAccess'] = false;
  return { ok: true, params: checked };
}

/** The first context, object or world a command names that the client may not reach. */
function unreachableReference(value: unknown, scope: RelayScope): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = unreachableReference(item, scope);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (CONTEXT_KEYS.has(key) && typeof item === 'number' && !scope.contexts.allowsContext(item)) {
      return `execution context ${item} is not one this client may reach (the page's main world or a world it created)`;
    }
    if (key === 'uniqueContextId' && typeof item === 'string' && !scope.contexts.allowsUniqueContext(item)) {
      return `execution context ${item} is not one this client may reach`;
    }
    if (OBJECT_KEYS.has(key) && typeof item === 'string') {
      const contextId = Number(item.split('.')[1]);
      if (!scope.contexts.allowsContext(contextId)) {
        return `object ${item} belongs to a context this client may not reach`;
      }
    }
    if (key === 'executionContextName' && typeof item === 'string' && !scope.contexts.allowsWorldName(item)) {
      return `world ${JSON.stringify(item)} is not one this client created`;
    }
    // Values the page or the client chose (arguments' values, metadata) hold no references.
    if (key === 'value') continue;
    const found = unreachableReference(item, scope);
    if (found !== undefined) return found;
  }
  return undefined;
}
