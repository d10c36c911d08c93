import { describe, expect, it } from 'vitest';
import { JobPageQuery } from '../../../shared/api/job-page-query';

describe('the ?skip=&limit= of a job status', () => {
  it('reads decimal counts and defaults skip to 0', () => {
    expect(JobPageQuery.parse({})).toEqual({ skip: 0 });
    expect(JobPageQuery.parse({ skip: '20', limit: '5' })).toEqual({ skip: 20, limit: 5 });
  });

  it.each([
    ['an empty skip', { skip: '' }],
    ['a blank skip', { skip: ' ' }],
    ['a hexadecimal skip', { skip: '0x10' }],
    ['an exponent', { skip: '1e3' }],
    ['a negative skip', { skip: '-1' }],
    ['a zero limit', { limit: '0' }],
    ['a fractional limit', { limit: '2.5' }],
    ['a repeated parameter', { skip: ['1', '2'] }],
  ])('refuses %s instead of reading it as a number', (_name, query) => {
    expect(JobPageQuery.safeParse(query).success).toBe(false);
  });
});
