import { describe, expect, it } from 'vitest';
import { answerProblem, parseJsonAnswer } from '../../../server/products/agent/final-answer';
import { guardSchema } from '../../../server/platform/llm/schema-guard';

const schema = guardSchema({
  type: 'object',
  properties: { price: { type: 'number' } },
  required: ['price'],
});

describe('the final answer check', () => {
  it('reads JSON, fenced or not', () => {
    expect(parseJsonAnswer('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonAnswer('```json\n{"a":1}\n```')).toEqual({ a: 1 });
  });

  it('accepts an answer that fits the schema', () => {
    expect(answerProblem('{"price": 12.5}', schema)).toEqual({ value: { price: 12.5 } });
  });

  it('names what is wrong with one that does not', () => {
    expect(answerProblem('{"price": "cheap"}', schema).problem).toMatch(/does not match the schema: .*price/);
    expect(answerProblem('{}', schema).problem).toMatch(/price/);
    expect(answerProblem('cheap', schema).problem).toBe('the answer is not valid JSON');
  });

  it('wants an object when there is no schema', () => {
    expect(answerProblem('{"any": true}', undefined)).toEqual({ value: { any: true } });
    expect(answerProblem('42', undefined).problem).toBe('the answer is not a JSON object');
  });
});
