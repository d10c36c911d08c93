import { describe, expect, it } from 'vitest';
import { runInSandbox } from '../../../server/products/browser-sessions/execute/run-in-sandbox';
import { DEFAULT_SANDBOX_LIMITS } from '../../../server/products/browser-sessions/execute/sandbox-limits';

/**
 * The execute sandbox's own walls, without a browser: what a caller's code finds (and does not
 * find) in the isolate, and how code that loops or eats memory is stopped. The walls around the
 * session's Playwright objects are tested with a real session in test/e2e/browser-execute-sandbox.test.ts.
 */

const run = (code: string, timeoutMs = 5_000, limits = DEFAULT_SANDBOX_LIMITS) =>
  runInSandbox({ code, timeoutMs, limits });

describe('the execute sandbox', () => {
  it('runs the code as an async function body: return, await, console', async () => {
    const outcome = await run(
      'console.log("one", 2, {three: 3}); console.error("oops"); await null; return {sum: 1 + 1}',
    );
    expect(outcome).toEqual({
      kind: 'returned',
      value: '{"sum":2}',
      logs: [
        { stream: 'stdout', text: 'one 2 {"three":3}' },
        { stream: 'stderr', text: 'oops' },
      ],
    });
    expect(await run('return "text"')).toMatchObject({ kind: 'returned', value: 'text' });
    expect(await run('const x = 1')).toMatchObject({ kind: 'returned', value: undefined });
  });

  it('reports what the code threw, and syntax errors', async () => {
    expect(await run('throw new TypeError("bad thing")')).toMatchObject({
      kind: 'threw',
      message: 'TypeError: bad thing',
    });
    expect(await run('throw "a string"')).toMatchObject({ kind: 'threw', message: 'Uncaught a string' });
    const syntax = await run('return (');
    expect(syntax.kind).toBe('threw');
    expect(syntax.kind === 'threw' && syntax.message).toMatch(/SyntaxError|Unexpected/);
  });

  it('has no Node APIs: no require, process, module, fetch, timers, Buffer of Node', async () => {
    const outcome = await run(`return {
      require: typeof require, process: typeof process, module: typeof module, fetch: typeof fetch,
      setTimeout: typeof setTimeout, XMLHttpRequest: typeof XMLHttpRequest, WebSocket: typeof WebSocket,
      globalProcess: typeof globalThis.process, bufferFrom: typeof Buffer.from,
      page: typeof page, bridge: Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__tabhive_call')),
    }`);
    expect(outcome.kind === 'returned' && JSON.parse(outcome.value ?? '{}')).toEqual({
      require: 'undefined',
      process: 'undefined',
      module: 'undefined',
      fetch: 'undefined',
      setTimeout: 'undefined',
      XMLHttpRequest: 'undefined',
      WebSocket: 'undefined',
      globalProcess: 'undefined',
      bufferFrom: 'function',
      page: 'undefined',
      bridge: [],
    });
  });

  it('cannot import modules or reach the host through constructors', async () => {
    const imported = await run('await import("node:fs"); return "imported"');
    expect(imported.kind).toBe('threw');
    const escaped = await run(
      'return [this.constructor.constructor("return typeof process")(), typeof (function(){ return this })().process]',
    );
    expect(escaped).toMatchObject({ kind: 'returned', value: '["undefined","undefined"]' });
    // The sandbox's Buffer is a Uint8Array that prints, not Node's (no allocUnsafe, no file reads).
    expect(await run('return typeof Buffer.allocUnsafe')).toMatchObject({ value: 'undefined' });
  });

  it('has no environment: the server process env is not there, nor its secrets', async () => {
    process.env['TABHIVE_SANDBOX_TEST_SECRET'] = 'do-not-leak';
    try {
      const outcome = await run(
        'return JSON.stringify(Object.getOwnPropertyNames(globalThis)) + (typeof process === "undefined" ? "" : JSON.stringify(process.env))',
      );
      expect(outcome.kind === 'returned' && outcome.value).not.toContain('do-not-leak');
    } finally {
      delete process.env['TABHIVE_SANDBOX_TEST_SECRET'];
    }
  });

  it('stops an endless synchronous loop at the timeout', async () => {
    const outcome = await run('for (;;) {}', 1_000, { ...DEFAULT_SANDBOX_LIMITS, cpuMs: 60_000 });
    expect(outcome).toMatchObject({ kind: 'killed', reason: 'timeout' });
  });

  it('stops an endless loop of promises, which never yields to a timer', async () => {
    const outcome = await run('console.log("before"); for (;;) { await null; }', 1_000, {
      ...DEFAULT_SANDBOX_LIMITS,
      cpuMs: 60_000,
    });
    expect(outcome).toMatchObject({ kind: 'killed', reason: 'timeout', logs: [{ text: 'before' }] });
  });

  it('stops code at its CPU time before the wall timeout', async () => {
    const outcome = await run('for (;;) {}', 30_000, { ...DEFAULT_SANDBOX_LIMITS, cpuMs: 300 });
    expect(outcome).toMatchObject({ kind: 'killed', reason: 'cpu' });
  });

  it('stops a memory bomb at the memory limit, and the next run works', { timeout: 60_000 }, async () => {
    const outcome = await run(
      'const kept = []; for (;;) kept.push("x".repeat(1024) + Math.random());',
      20_000,
    );
    expect(outcome).toMatchObject({ kind: 'killed', reason: 'memory' });
    const big = await run('const b = new ArrayBuffer(512 * 1024 * 1024); return b.byteLength', 20_000);
    expect(big.kind).not.toBe('returned');
    expect(await run('return 6 * 7')).toMatchObject({ kind: 'returned', value: '42' });
  });

  it('keeps at most maxConsoleChars of console output', async () => {
    const outcome = await run(
      'for (let i = 0; i < 10000; i++) console.log("x".repeat(100)); return 1',
      5_000,
      {
        ...DEFAULT_SANDBOX_LIMITS,
        maxConsoleChars: 1_000,
      },
    );
    const chars = outcome.logs.reduce((sum, line) => sum + line.text.length, 0);
    expect(chars).toBeLessThanOrEqual(1_100);
    expect(outcome).toMatchObject({ kind: 'returned', value: '1' });
  });
});
