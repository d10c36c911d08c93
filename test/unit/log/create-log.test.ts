import { describe, expect, it } from 'vitest';
import { createLog, urlForLog } from '../../../server/platform/log/log';
import { withLogContext } from '../../../server/platform/log/log-context';
import { logSettings } from '../../../server/platform/log/log-settings';
import { prettyLine } from '../../../server/platform/log/pretty-line';

/** A log destination that keeps what is written. */
function capture() {
  const written: string[] = [];
  return { destination: { write: (line: string) => void written.push(line) }, written };
}

describe('createLog', () => {
  it('JSON format: one parseable object per line, with level, time, message and fields', () => {
    const { destination, written } = capture();
    const log = createLog({ format: 'json', destination });
    log.info('browser connected', { browserId: 'b1', browsers: 2 });
    log.error('page task failed', { code: 'SCRAPE_TIMEOUT', error: 'line one\nline two' });
    expect(written).toHaveLength(2);
    for (const line of written)
      expect(line.endsWith('\n') && line.indexOf('\n') === line.length - 1).toBe(true);
    const [first, second] = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ level: 'info', msg: 'browser connected', browserId: 'b1', browsers: 2 });
    expect(new Date(first!.time as string).toISOString()).toBe(first!.time);
    expect(second).toMatchObject({ level: 'error', code: 'SCRAPE_TIMEOUT', error: 'line one\nline two' });
  });

  it('pretty format: one line per event, the message followed by its fields as JSON', () => {
    const { destination, written } = capture();
    const log = createLog({ destination });
    log.info('browser launched', { slot: 0, pid: 4242 });
    log.warn('unhandled error', { error: 'Error: x\n    at a (b.ts:1:1)', nested: { a: 1 } });
    log.info('shutting down');
    expect(written).toHaveLength(3);
    for (const line of written) expect(line.split('\n')).toEqual([expect.any(String), '']);
    // The shape the built-server test and operators' greps read.
    expect(written[0]).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: browser launched \{"slot":0,"pid":4242\}\n$/,
    );
    expect(written[1]).toContain(
      'WARN: unhandled error {"error":"Error: x\\n    at a (b.ts:1:1)","nested":{"a":1}}',
    );
    expect(written[2]).toMatch(/INFO: shutting down\n$/);
  });

  it('quiet drops info (and debug) but keeps warnings and errors', () => {
    const { destination, written } = capture();
    const log = createLog({ quiet: true, format: 'json', destination });
    log.debug?.('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(written.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['w', 'e']);
  });

  it('LOG_LEVEL: debug shows debug lines, error hides warnings', () => {
    const debug = capture();
    createLog({ level: 'debug', format: 'json', destination: debug.destination }).debug?.('polled');
    expect(debug.written).toHaveLength(1);
    const errorOnly = capture();
    const log = createLog({ level: 'error', format: 'json', destination: errorOnly.destination });
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(errorOnly.written).toHaveLength(1);
  });

  it('every line carries the ids of the work it belongs to', async () => {
    const { destination, written } = capture();
    const log = createLog({ format: 'json', destination });
    await withLogContext({ requestId: 'req-1' }, async () => {
      await Promise.resolve();
      await withLogContext({ jobId: 'job-1', taskId: 'task-1' }, async () => log.warn('browser task failed'));
      log.info('request', { requestId: 'req-1' });
    });
    log.info('outside');
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ requestId: 'req-1', jobId: 'job-1', taskId: 'task-1' });
    // A field given again is written once.
    expect(written[1]!.match(/requestId/g)).toHaveLength(1);
    expect(lines[2]).not.toHaveProperty('requestId');
  });
});

describe('log settings', () => {
  it('LOG_FORMAT and LOG_LEVEL default to pretty and info, and refuse other values', () => {
    expect(logSettings({})).toEqual({ format: 'pretty', level: 'info' });
    expect(logSettings({ LOG_FORMAT: ' JSON ', LOG_LEVEL: 'Debug' })).toEqual({
      format: 'json',
      level: 'debug',
    });
    expect(logSettings({ LOG_FORMAT: '', LOG_LEVEL: '' })).toEqual({ format: 'pretty', level: 'info' });
    expect(() => logSettings({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    expect(() => logSettings({ LOG_LEVEL: 'trace' })).toThrow(/LOG_LEVEL/);
  });

  it('page URLs are logged without credentials, query or fragment', () => {
    expect(urlForLog('https://user:pw@example.com/a/b?token=secret#x')).toBe('https://example.com/a/b');
    expect(urlForLog('not a url')).toBe('(not a URL)');
  });
});

describe('prettyLine', () => {
  const at = new Date(2026, 10, 29, 7, 5, 3, 9);

  it('writes the local time, the level, the message and the fields as compact JSON', () => {
    expect(prettyLine('warn', 'slow page', { ms: 12, url: 'https://a.test/' }, { now: at })).toBe(
      '[2026-11-29 07:05:03.009] WARN: slow page {"ms":12,"url":"https://a.test/"}\n',
    );
    expect(prettyLine('info', 'started', {}, { now: at })).toBe('[2026-11-29 07:05:03.009] INFO: started\n');
  });

  it('never throws on a field that refers back to itself or on a bigint', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    const line = prettyLine('error', 'odd fields', { loop, big: 12n }, { now: at });
    expect(line).toBe(
      '[2026-11-29 07:05:03.009] ERROR: odd fields {"loop":{"name":"loop","self":"[Circular]"},"big":"12"}\n',
    );
  });

  it('colours the level on a terminal only', () => {
    expect(prettyLine('error', 'x', {}, { now: at, colorize: true })).toContain(
      '\u001b[31mERROR\u001b[39m: x',
    );
  });
});
