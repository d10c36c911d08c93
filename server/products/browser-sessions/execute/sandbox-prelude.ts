/**
 * The script run in a fresh isolate before the caller's code (run-in-sandbox.ts). It takes the
 * bridge the host put on the global object (and removes it from there), and defines what the code
 * sees: `page`, `context` and `browser` as proxies whose members are the surface's
 * (playwright-surface.ts), `console`, and a small `Buffer` for the bytes a screenshot or a body
 * returns. It is plain JavaScript text, not a compiled function, so that no build step can add
 * helpers the isolate lacks.
 *
 * On the bridge: a handle is `{__tabhive: 'handle', id, type}`, a function `{__tabhive:
 * 'function', source}` (sent to the page as text), bytes `{__tabhive: 'bytes', data}`; everything
 * else is copied as it is (structured clone).
 */
export const SANDBOX_PRELUDE = String.raw`
(function () {
  'use strict';
  const g = globalThis;
  const callSync = g.__tabhive_call_sync;
  const callAsync = g.__tabhive_call_async;
  const writeLine = g.__tabhive_log;
  const surface = JSON.parse(g.__tabhive_surface);
  const roots = JSON.parse(g.__tabhive_roots);
  delete g.__tabhive_call_sync;
  delete g.__tabhive_call_async;
  delete g.__tabhive_log;
  delete g.__tabhive_surface;
  delete g.__tabhive_roots;
  const MARK = '__tabhive';
  const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const proxies = new Map();
  const handleIds = new WeakMap();
  const handleTypes = new WeakMap();

  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function toBase64(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
      out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
      out += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
    }
    return out;
  }
  function toUtf8(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      out += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 8192)));
    }
    try { return decodeURIComponent(escape(out)); } catch (err) { return out; }
  }
  /** What Node's Buffer is to the code for bytes Playwright returns: a Uint8Array that prints. */
  class Buffer extends Uint8Array {
    toString(encoding) {
      if (encoding === 'base64') return toBase64(this);
      if (encoding === 'hex') return Array.from(this, (b) => b.toString(16).padStart(2, '0')).join('');
      return toUtf8(this);
    }
    toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
    static isBuffer(value) { return value instanceof Buffer; }
  }

  function encode(value, depth) {
    if (depth > 32) throw new Error('arguments nest more than 32 levels deep');
    if (value !== null && (typeof value === 'object' || typeof value === 'function') && handleIds.has(value)) {
      return { [MARK]: 'handle', id: handleIds.get(value) };
    }
    if (typeof value === 'function') return { [MARK]: 'function', source: Function.prototype.toString.call(value) };
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => encode(item, depth + 1));
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp) return value;
    const out = {};
    for (const key of Object.keys(value)) out[key] = encode(value[key], depth + 1);
    return out;
  }

  function decode(value) {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(decode);
    if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof RegExp) return value;
    if (value[MARK] === 'handle') return handle(value.id, value.type);
    if (value[MARK] === 'bytes') {
      const bytes = new Buffer(value.data.length);
      bytes.set(value.data);
      return bytes;
    }
    const out = {};
    for (const key of Object.keys(value)) out[key] = decode(value[key]);
    return out;
  }

  function members(id, type, path) {
    const table = hasOwn(surface, type) ? surface[type] : {};
    const made = new Map();
    const target = Object.create(null);
    return new Proxy(target, {
      get(_target, key) {
        if (key === Symbol.toStringTag) return type;
        if (typeof key !== 'string') return undefined;
        if (key === 'toString' || key === 'toJSON') return () => '[' + type + ']';
        if (!hasOwn(table, key)) return undefined;
        if (made.has(key)) return made.get(key);
        const member = table[key];
        const at = path.concat(key);
        let value;
        if (typeof member === 'object') value = members(id, member.object, at);
        else if (member === 'sync') {
          value = function (...args) {
            return decode(callSync(id, at, encode(args, 0)));
          };
        } else {
          value = async function (...args) {
            const sent = encode(args, 0);
            return decode(await callAsync.apply(undefined, [id, at, sent], {
              arguments: { copy: true },
              result: { promise: true, copy: true },
            }));
          };
        }
        made.set(key, value);
        return value;
      },
      has(_target, key) { return typeof key === 'string' && hasOwn(table, key); },
      set() { return false; },
      defineProperty() { return false; },
      deleteProperty() { return false; },
    });
  }

  function handle(id, type) {
    if (proxies.has(id)) return proxies.get(id);
    const proxy = members(id, type, []);
    proxies.set(id, proxy);
    handleIds.set(proxy, id);
    handleTypes.set(proxy, type);
    return proxy;
  }

  function show(value) {
    if (typeof value === 'string') return value;
    if (value !== null && typeof value === 'object' && handleTypes.has(value)) return '[' + handleTypes.get(value) + ']';
    if (value instanceof Error) return value.stack || String(value);
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' || value === undefined) return String(value);
    try {
      const text = JSON.stringify(value, (key, item) =>
        item !== null && typeof item === 'object' && handleTypes.has(item) ? '[' + handleTypes.get(item) + ']' : item);
      return text === undefined ? String(value) : text;
    } catch (err) {
      return String(value);
    }
  }
  const line = (stream) => (...args) => { writeLine(stream, args.map(show).join(' ')); };
  const console = {
    log: line('stdout'), info: line('stdout'), debug: line('stdout'), trace: line('stdout'),
    dir: line('stdout'), table: line('stdout'), error: line('stderr'), warn: line('stderr'),
  };

  /** The code's value as the response's result text (a string, or nothing), or the error it threw. */
  function settle(running) {
    return Promise.resolve(running).then(
      (value) => ({ value: value === undefined || value === null ? undefined : show(value) }),
      (err) => ({ error: err instanceof Error ? (err.name + ': ' + err.message) : 'Uncaught ' + show(err) }),
    );
  }

  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: false, enumerable: false, configurable: false });
  if (roots !== null) {
    define('page', handle(roots.page, 'Page'));
    define('context', handle(roots.context, 'BrowserContext'));
    define('browser', handle(roots.browser, 'Browser'));
  }
  define('console', console);
  define('Buffer', Buffer);
  define('__tabhive_settle', settle);
})();
`;
