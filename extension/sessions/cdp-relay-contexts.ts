import { RESERVED_WORLD } from './cdp-relay-params';

/**
 * The execution contexts a relay client may run code in, or hold objects of: the main world of
 * each frame of the tab, and the isolated worlds the client itself named (`Page.createIsolatedWorld`,
 * `Page.addScriptToEvaluateOnNewDocument{worldName}`). Not reachable: the extension's content
 * script world (it has `chrome.storage` and the extension's other APIs), Tabhive's own worlds for
 * capture and a session's `execute`, and any context the tab never reported. Contexts come from
 * the tab's `Runtime.executionContextCreated` events, which the extension sees before it forwards
 * them, so a client knows no id this view has not judged. Context ids are small integers and a
 * remote object's id names its context (`<isolate>.<context>.<object>`), so guessing either gets
 * nothing: every id a command carries is looked up here.
 */
export interface RelayContexts {
  /** Feeds the tab's events (every event, forwarded or not). */
  observe(method: string, params: Record<string, unknown>): void;
  /** The client named a world; refused (false) for a name of Tabhive's own worlds. */
  nameWorld(name: string): boolean;
  /** `Page.createIsolatedWorld` answered this context for the client. */
  created(contextId: number): void;
  allowsContext(contextId: number): boolean;
  allowsUniqueContext(uniqueId: string): boolean;
  allowsWorldName(name: string): boolean;
  /** Whether an event may reach the client: not one of a context it may not reach. */
  showsEvent(method: string, params: Record<string, unknown>): boolean;
}

interface ContextDescription {
  id?: unknown;
  uniqueId?: unknown;
  name?: unknown;
  origin?: unknown;
  auxData?: { isDefault?: unknown; type?: unknown };
}

const PRIVILEGED_ORIGIN = /^(chrome-extension|chrome|chrome-untrusted|devtools|moz-extension):/i;

export function createRelayContexts(): RelayContexts {
  const worldNames = new Set<string>();
  /** Reachable contexts by id, with their unique ids. */
  const reachable = new Map<number, string | undefined>();
  const createdIds = new Set<number>();
  /** Every context the client was ever shown, so that it also hears of its end. */
  const shown = new Set<number>();

  const judge = (context: ContextDescription): boolean => {
    // An extension's or the browser's own world (Chromium reports `://` for about:blank's).
    if (typeof context.origin === 'string' && PRIVILEGED_ORIGIN.test(context.origin)) return false;
    if (context.auxData?.isDefault === true) return true;
    return (
      context.auxData?.type === 'isolated' &&
      typeof context.name === 'string' &&
      worldNames.has(context.name) &&
      !RESERVED_WORLD.test(context.name)
    );
  };

  const allowsContext = (contextId: number) => reachable.has(contextId) || createdIds.has(contextId);

  return {
    observe(method, params) {
      if (method === 'Runtime.executionContextCreated') {
        const context = (params['context'] ?? {}) as ContextDescription;
        if (typeof context.id !== 'number') return;
        if (judge(context)) {
          reachable.set(context.id, typeof context.uniqueId === 'string' ? context.uniqueId : undefined);
          shown.add(context.id);
        } else reachable.delete(context.id);
      } else if (method === 'Runtime.executionContextDestroyed') {
        const contextId = params['executionContextId'];
        if (typeof contextId === 'number') {
          reachable.delete(contextId);
          createdIds.delete(contextId);
        }
      } else if (method === 'Runtime.executionContextsCleared') {
        reachable.clear();
        createdIds.clear();
      }
    },
    nameWorld(name) {
      if (RESERVED_WORLD.test(name)) return false;
      worldNames.add(name);
      return true;
    },
    created(contextId) {
      createdIds.add(contextId);
      shown.add(contextId);
    },
    allowsContext,
    allowsUniqueContext(uniqueId) {
      return [...reachable.values()].includes(uniqueId);
    },
    allowsWorldName(name) {
      return worldNames.has(name);
    },
    showsEvent(method, params) {
      if (!method.startsWith('Runtime.')) return true;
      if (method === 'Runtime.executionContextDestroyed')
        return shown.has(Number(params['executionContextId']));
      // A context's announcement, and its console lines, exceptions and binding calls.
      const context = params['context'] as ContextDescription | undefined;
      const exception = params['exceptionDetails'] as { executionContextId?: unknown } | undefined;
      const named = [context?.id, params['executionContextId'], exception?.executionContextId];
      return named.every((contextId) => typeof contextId !== 'number' || allowsContext(contextId));
    },
  };
}
