import { FILE_OPTION_METHODS, PAGE_FUNCTION_METHODS, type Member, type Surface } from './playwright-surface';
import type { SandboxLimits } from './sandbox-limits';

/** The marker key of values that are not plain data on the bridge (handles, functions, bytes). */
export const BRIDGE_MARK = '__tabhive';

/** The ids the sandbox's `browser`, `context` and `page` start with. */
export const ROOT_HANDLES = { browser: 1, context: 2, page: 3 } as const;

export type CallMode = 'sync' | 'async';

/** A call's result as it will be copied into the sandbox, and about how large it is (characters, bytes, entries). */
export interface BridgeResult {
  value: unknown;
  size: number;
}

/** A refusal the code can read: what it asked for and why it is not offered. */
class BridgeRefusal extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * The Playwright type of a host object, or undefined for plain data. Playwright's protocol objects
 * carry their type (`_type`, with a `_guid`); the others (Locator, FrameLocator) are known by
 * their class, whose bundled name may carry a `_` prefix or a digit suffix.
 */
function playwrightType(value: object): string | undefined {
  const record = value as { _type?: unknown; _guid?: unknown };
  if (typeof record._type === 'string' && typeof record._guid === 'string') return record._type;
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string') return undefined;
  return /^_?([A-Za-z]+?)\d*$/.exec(name)?.[1];
}

const memberOf = (surface: Surface, type: string, name: string): Member | undefined =>
  Object.hasOwn(surface, type) && Object.hasOwn(surface[type] ?? {}, name)
    ? surface[type]?.[name]
    : undefined;

/** A function whose source goes to the page: Playwright reads it with String(); it never runs here. */
function pageFunction(source: string): () => never {
  const stand = () => {
    throw new Error('a page function runs in the page only');
  };
  stand.toString = () => source;
  return stand;
}

/**
 * The host's half of the sandbox's bridge: the Playwright objects of one run, by id, and the calls
 * the sandbox makes on them, checked against the surface (playwright-surface.ts) and the limits.
 * Arguments come in as copies: markers become this run's objects or page functions; results go
 * out as copies, with Playwright objects registered as new handles and bytes marked.
 */
export function createHostBridge({
  roots,
  surface,
  limits,
}: {
  roots: { browser: object; context: object; page: object };
  surface: Surface;
  limits: SandboxLimits;
}) {
  const objects = new Map<number, { value: object; type: string }>();
  const ids = new WeakMap<object, number>();
  let nextId = 1;
  let calls = 0;
  let inFlight = 0;

  const register = (value: object, type: string): number => {
    const known = ids.get(value);
    if (known !== undefined) return known;
    if (objects.size >= limits.maxHandles) {
      throw new BridgeRefusal(
        `this execute already holds ${limits.maxHandles} Playwright objects, the most one run may hold`,
      );
    }
    const id = nextId++;
    objects.set(id, { value, type });
    ids.set(value, id);
    return id;
  };
  register(roots.browser, 'Browser');
  register(roots.context, 'BrowserContext');
  register(roots.page, 'Page');

  const decode = (value: unknown, method: string, depth: number): unknown => {
    if (depth > 32) throw new BridgeRefusal('arguments nest more than 32 levels deep');
    if (Array.isArray(value)) return value.map((item) => decode(item, method, depth + 1));
    if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
    const mark = value[BRIDGE_MARK];
    if (mark === 'handle') {
      const found = objects.get(Number(value['id']));
      if (found === undefined) throw new BridgeRefusal('that Playwright object is not one of this run');
      return found.value;
    }
    if (mark === 'function') {
      if (!PAGE_FUNCTION_METHODS.has(method)) {
        throw new BridgeRefusal(
          `${method}() cannot take a function here: functions are sent to the page as source text, so only page functions (evaluate, $eval, waitForFunction…) are accepted`,
        );
      }
      return pageFunction(String(value['source']));
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, decode(item, method, depth + 1)]),
    );
  };

  /** The result as a copy for the sandbox; `size` counts its text and bytes against the limit. */
  const encode = (value: unknown, size: { left: number }, depth: number): unknown => {
    if (typeof value === 'string') {
      size.left -= value.length;
      if (size.left < 0) {
        throw new BridgeRefusal(
          `the result is larger than ${limits.maxResultSize} characters, the most one call may bring back`,
        );
      }
      return value;
    }
    if (typeof value === 'function') return undefined;
    if (!isObject(value)) return value;
    if (depth > 64) throw new BridgeRefusal('the result nests more than 64 levels deep');
    if (value instanceof Uint8Array) {
      size.left -= value.byteLength;
      if (size.left < 0) {
        throw new BridgeRefusal(
          `the result is larger than ${limits.maxResultSize} bytes, the most one call may bring back`,
        );
      }
      return { [BRIDGE_MARK]: 'bytes', data: new Uint8Array(value) };
    }
    if (value instanceof Date || value instanceof RegExp) return value;
    // Each entry counts too, so a result of a million small numbers is as bounded as a long text.
    size.left -= 8 * (Array.isArray(value) ? value.length : Object.keys(value).length);
    if (size.left < 0) throw new BridgeRefusal(`the result has more entries than one call may bring back`);
    if (Array.isArray(value)) return value.map((item) => encode(item, size, depth + 1));
    const type = playwrightType(value);
    if (type !== undefined && Object.hasOwn(surface, type)) {
      return { [BRIDGE_MARK]: 'handle', id: register(value, type), type };
    }
    if ((value as { _guid?: unknown })._guid !== undefined) {
      throw new BridgeRefusal(`the call gave a Playwright ${type ?? 'object'}, which execute does not offer`);
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, encode(item, size, depth + 1)]),
    );
  };

  const sized = (result: unknown): BridgeResult => {
    const size = { left: limits.maxResultSize };
    const value = encode(result, size, 0);
    return { value, size: limits.maxResultSize - size.left };
  };

  /** The object and method a call names, checked against the surface and the call's mode. */
  const resolve = (id: number, path: readonly string[], mode: CallMode) => {
    calls += 1;
    if (calls > limits.maxCalls) {
      throw new BridgeRefusal(
        `this execute made more than ${limits.maxCalls} Playwright calls, the most one run may make`,
      );
    }
    const found = objects.get(id);
    if (found === undefined) throw new BridgeRefusal('that Playwright object is not one of this run');
    let target: unknown = found.value;
    let type = found.type;
    const name = path.at(-1) ?? '';
    for (const step of path.slice(0, -1)) {
      const member = memberOf(surface, type, step);
      if (typeof member !== 'object') throw new BridgeRefusal(`${type}.${step} is not offered`);
      target = (target as Record<string, unknown>)[step];
      type = member.object;
    }
    const member = memberOf(surface, type, name);
    if (member !== mode) throw new BridgeRefusal(`${type}.${name}() is not offered by execute`);
    const method = (target as Record<string, unknown>)[name];
    if (typeof method !== 'function') throw new BridgeRefusal(`${type}.${name}() is not offered by execute`);
    return { target, method: method as (...args: unknown[]) => unknown, name, type };
  };

  const decodeArgs = (args: unknown, name: string, type: string): unknown[] => {
    const list = Array.isArray(args) ? args.map((arg) => decode(arg, name, 0)) : [];
    if (FILE_OPTION_METHODS.has(name) && list.some((arg) => isObject(arg) && 'path' in arg)) {
      throw new BridgeRefusal(
        `${type}.${name}() cannot take a 'path': execute has no file system; use the value it returns instead`,
      );
    }
    return list;
  };

  return {
    /** A synchronous call (`page.locator()`), answered before the sandbox goes on. */
    callSync(id: number, path: readonly string[], args: unknown): BridgeResult {
      const { target, method, name, type } = resolve(id, path, 'sync');
      const result = Reflect.apply(method, target, decodeArgs(args, name, type));
      return sized(result);
    },
    /** A call that waits for the page (`page.goto()`). */
    async callAsync(id: number, path: readonly string[], args: unknown): Promise<BridgeResult> {
      const { target, method, name, type } = resolve(id, path, 'async');
      if (inFlight >= limits.maxCallsInFlight) {
        throw new BridgeRefusal(
          `this execute already waits on ${limits.maxCallsInFlight} Playwright calls, the most at once`,
        );
      }
      inFlight += 1;
      try {
        const result: unknown = await Reflect.apply(method, target, decodeArgs(args, name, type));
        return sized(result);
      } finally {
        inFlight -= 1;
      }
    },
    /** How many calls the run made. */
    calls: () => calls,
  };
}

export type HostBridge = ReturnType<typeof createHostBridge>;
