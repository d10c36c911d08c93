import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  decodeBrowserMessage,
  decodeServerMessage,
} from '../../../shared/protocol/messages';

describe('hub protocol decoding', () => {
  it('decodes a hello and fills in defaults', () => {
    const decoded = decodeBrowserMessage(
      JSON.stringify({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        token: 't',
        extensionVersion: '1',
        userAgent: 'ua',
      }),
    );
    expect(decoded).toEqual({
      ok: true,
      message: {
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        token: 't',
        extensionVersion: '1',
        userAgent: 'ua',
        lostTaskIds: [],
        browserClass: 'basic',
      },
    });
  });

  it('decodes successful and failed results', () => {
    const capture = { url: 'http://a.test/', statusCode: 200, rawHtml: '<p>', renderedHtml: '<p>' };
    expect(decodeBrowserMessage(JSON.stringify({ type: 'result', taskId: '1', ok: true, capture })).ok).toBe(
      true,
    );
    const failed = decodeBrowserMessage(
      JSON.stringify({
        type: 'result',
        taskId: '1',
        ok: false,
        error: { code: 'SCRAPE_TIMEOUT', message: 'late' },
      }),
    );
    expect(
      failed.ok && failed.message.type === 'result' && !failed.message.ok && failed.message.error.code,
    ).toBe('SCRAPE_TIMEOUT');
  });

  it('rejects what is not a valid message, without throwing', () => {
    for (const frame of [
      'not json',
      '42',
      'null',
      JSON.stringify({ type: 'launch-missiles' }),
      JSON.stringify({ type: 'result', taskId: '1', ok: true }),
      JSON.stringify({ type: 'result', taskId: '1', ok: false, error: { code: 'MADE_UP', message: 'x' } }),
      JSON.stringify({
        type: 'hello',
        protocolVersion: 1,
        token: '',
        extensionVersion: '1',
        userAgent: 'ua',
      }),
    ]) {
      const decoded = decodeBrowserMessage(frame);
      expect(decoded.ok, frame).toBe(false);
    }
  });

  it('decodes server messages and refuses a task for a non-http URL', () => {
    const task = { type: 'task', taskId: 't1', timeoutMs: 1000, spec: { url: 'https://a.test/' } };
    const decoded = decodeServerMessage(JSON.stringify(task));
    expect(decoded.ok && decoded.message.type === 'task' && decoded.message.spec.waitForMs).toBe(0);
    const bad = decodeServerMessage(JSON.stringify({ ...task, spec: { url: 'file:///etc/passwd' } }));
    expect(bad.ok).toBe(false);
  });
});
