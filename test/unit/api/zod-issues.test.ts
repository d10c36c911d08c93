import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toIssueDetails } from '../../../shared/api/zod-issues';

function detailsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) throw new Error('expected a validation error');
  return toIssueDetails(result.error);
}

describe('toIssueDetails', () => {
  it('keeps code, message, path and the issue’s own fields, and drops input', () => {
    const details = detailsOf(z.object({ n: z.number().max(5) }), { n: 6 });
    expect(details).toEqual([
      {
        code: 'too_big',
        message: expect.any(String),
        path: ['n'],
        origin: 'number',
        maximum: 5,
        inclusive: true,
      },
    ]);
  });

  it('returns plain JSON that survives a round trip', () => {
    const schema = z.object({
      big: z.bigint().max(5n),
      id: z.string().regex(/^a+$/),
      kind: z.discriminatedUnion('type', [
        z.object({ type: z.literal('a') }),
        z.object({ type: z.literal('b') }),
      ]),
      tags: z.record(z.string().regex(/^x/), z.string()),
      either: z.union([z.string(), z.number()]),
    });
    const details = detailsOf(schema, {
      big: 6n,
      id: 'b',
      kind: { type: 'c' },
      tags: { y: 'v' },
      either: true,
    });
    expect(JSON.parse(JSON.stringify(details))).toEqual(details);
    expect(JSON.stringify(details)).not.toContain('"input"');
    expect(details.find((detail) => detail.path[0] === 'big')).toMatchObject({ maximum: '5' });
    expect(details.find((detail) => detail.path[0] === 'either')?.errors).toEqual([
      [expect.objectContaining({ code: 'invalid_type', expected: 'string', path: [] })],
      [expect.objectContaining({ code: 'invalid_type', expected: 'number', path: [] })],
    ]);
    expect(details.find((detail) => detail.path[0] === 'tags')).toMatchObject({
      code: 'invalid_key',
      issues: [expect.objectContaining({ code: 'invalid_format' })],
    });
  });

  it('does not echo a huge input', () => {
    const details = detailsOf(z.object({ url: z.string().max(10) }), { url: 'x'.repeat(100_000) });
    expect(JSON.stringify(details).length).toBeLessThan(500);
  });
});
