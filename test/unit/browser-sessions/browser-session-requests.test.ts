import { describe, expect, it } from 'vitest';
import { BrowserCreateRequest, BrowserExecuteRequest } from '../../../shared/api/v2/browser-session';
import {
  actionsOutput,
  codeOutput,
  failedOutput,
  MAX_EXECUTE_OUTPUT_CHARS,
} from '../../../server/products/browser-sessions/execute-output';
import { sessionCredits } from '../../../server/products/browser-sessions/session-credits';

describe('POST /v2/browser bodies', () => {
  it('takes what the clients send and fills the defaults', () => {
    expect(BrowserCreateRequest.parse({ origin: 'js-sdk@4.42.0' })).toMatchObject({
      ttl: 300,
      streamWebView: true,
      blockAds: true,
    });
    const python = BrowserCreateRequest.parse({
      ttl: 60,
      activityTtl: 10,
      profile: { name: 'shop', saveChanges: true },
      location: { country: 'gb' },
    });
    expect(python).toMatchObject({ ttl: 60, activityTtl: 10, location: { country: 'GB' } });
  });

  it('refuses times out of range, unknown keys and unknown countries', () => {
    expect(BrowserCreateRequest.safeParse({ ttl: 29 }).success).toBe(false);
    expect(BrowserCreateRequest.safeParse({ ttl: 3601 }).success).toBe(false);
    expect(BrowserCreateRequest.safeParse({ activityTtl: 5 }).success).toBe(false);
    expect(BrowserCreateRequest.safeParse({ bogus: 1 }).success).toBe(false);
    expect(BrowserCreateRequest.safeParse({ location: { country: 'XX' } }).success).toBe(false);
  });
});

describe('execute bodies', () => {
  it('takes code, a prompt or actions, exactly one of them', () => {
    expect(BrowserExecuteRequest.parse({ code: '1', language: 'node' })).toMatchObject({ timeout: 30 });
    expect(BrowserExecuteRequest.safeParse({ prompt: 'click it' }).success).toBe(true);
    expect(BrowserExecuteRequest.safeParse({ actions: [{ type: 'click', selector: 'a' }] }).success).toBe(
      true,
    );
    expect(BrowserExecuteRequest.safeParse({}).success).toBe(false);
    expect(BrowserExecuteRequest.safeParse({ code: '1', prompt: 'x' }).success).toBe(false);
    expect(BrowserExecuteRequest.safeParse({ code: '1', timeout: 301 }).success).toBe(false);
    expect(BrowserExecuteRequest.safeParse({ code: '1', language: 'ruby' }).success).toBe(false);
  });
});

describe('execute responses', () => {
  it('splits console output and shows the value as text', () => {
    const output = codeOutput({
      value: { a: 1 },
      logs: [
        { stream: 'stdout', text: 'one' },
        { stream: 'stderr', text: 'warned' },
        { stream: 'stdout', text: 'two' },
      ],
    });
    expect(output).toEqual({
      success: true,
      stdout: 'one\ntwo\n',
      stderr: 'warned\n',
      result: '{"a":1}',
      exitCode: 0,
      killed: false,
    });
    expect(codeOutput({ value: 'text' }).result).toBe('text');
    // Code that only prints: the result is what it printed.
    expect(codeOutput({ value: undefined, logs: [{ stream: 'stdout', text: 'Hacker News' }] }).result).toBe(
      'Hacker News',
    );
  });

  it('cuts long output and says so', () => {
    const long = codeOutput({ value: 'x'.repeat(MAX_EXECUTE_OUTPUT_CHARS + 10) });
    expect(long.result).toHaveLength(MAX_EXECUTE_OUTPUT_CHARS);
    expect(long.truncated).toBe(true);
    expect(codeOutput({ value: 1 }).truncated).toBeUndefined();
  });

  it('reports failures and timeouts with an exit code', () => {
    expect(failedOutput('Error: boom', { killed: false })).toMatchObject({
      exitCode: 1,
      killed: false,
      error: 'Error: boom',
      stderr: 'Error: boom\n',
    });
    expect(failedOutput('timed out', { killed: true })).toMatchObject({ exitCode: 124, killed: true });
    const acted = actionsOutput({
      screenshots: [],
      scrapes: [],
      javascriptReturns: [{ type: 'number', value: 3 }],
      pdfs: [],
    });
    expect(JSON.parse(acted.result).javascriptReturns).toEqual([{ type: 'number', value: 3 }]);
  });
});

describe('session credits', () => {
  it('counts every started minute', () => {
    expect(sessionCredits(0)).toBe(0);
    expect(sessionCredits(1)).toBe(2);
    expect(sessionCredits(60_000)).toBe(2);
    expect(sessionCredits(60_001)).toBe(4);
  });
});
