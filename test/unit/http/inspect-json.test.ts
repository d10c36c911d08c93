import { describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { httpStatusOf } from '../../../server/api/http/error-status';
import { checkJsonTextDepth, inspectJson, JSON_LIMITS } from '../../../server/platform/input/inspect-json';

const rejection = (value: unknown) => {
  try {
    inspectJson(value);
  } catch (err) {
    if (err instanceof TabhiveError) return { status: httpStatusOf(err), details: err.details };
    throw err;
  }
  return undefined;
};

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

describe('inspectJson', () => {
  it('accepts ordinary request bodies', () => {
    expect(
      rejection({
        url: 'https://a.test',
        formats: [{ type: 'json', schema: { properties: { a: { type: 'string' } } } }],
      }),
    ).toBeUndefined();
    expect(rejection(nested(JSON_LIMITS.maxDepth))).toBeUndefined();
  });

  it('rejects deep nesting without recursion, even a million levels', () => {
    expect(rejection(nested(JSON_LIMITS.maxDepth + 1))).toMatchObject({ status: 400 });
    expect(rejection(nested(1_000_000))).toMatchObject({ status: 400 });
  });

  it('rejects __proto__ and constructor keys at any depth, naming the path', () => {
    expect(rejection(JSON.parse('{"a":[{"__proto__":{"polluted":1}}]}'))).toEqual({
      status: 400,
      details: [expect.objectContaining({ path: ['a', 0, '__proto__'] })],
    });
    expect(rejection({ scrapeOptions: { constructor: { prototype: { polluted: 1 } } } })).toMatchObject({
      status: 400,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects oversized arrays, objects and strings', () => {
    expect(rejection({ urls: new Array(JSON_LIMITS.maxArrayLength + 1).fill('x') })).toMatchObject({
      status: 400,
    });
    expect(
      rejection(
        Object.fromEntries(Array.from({ length: JSON_LIMITS.maxObjectKeys + 1 }, (_, i) => [`k${i}`, i])),
      ),
    ).toMatchObject({ status: 400 });
    expect(rejection({ prompt: 'x'.repeat(JSON_LIMITS.maxStringLength + 1) })).toMatchObject({ status: 400 });
  });

  it('refuses too deep JSON text before parsing it, ignoring brackets inside strings', () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(() => checkJsonTextDepth(deep(JSON_LIMITS.maxDepth))).not.toThrow();
    expect(() => checkJsonTextDepth(deep(JSON_LIMITS.maxDepth + 1))).toThrow(TabhiveError);
    expect(() => checkJsonTextDepth(deep(1_000_000))).toThrow(TabhiveError);
    expect(() => checkJsonTextDepth(JSON.stringify({ text: '['.repeat(100) + '\\"[[' }))).not.toThrow();
  });
});
