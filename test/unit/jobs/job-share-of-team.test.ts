import { describe, expect, it } from 'vitest';
import { jobShareOfTeam } from '../../../server/products/jobs/create-job-runner';

describe("jobs' share of a team's concurrency", () => {
  it('leaves a quarter (at least one) to single scrapes, unless the team may run one thing at a time', () => {
    expect([1, 2, 3, 4, 10, 100].map(jobShareOfTeam)).toEqual([1, 1, 2, 3, 8, 75]);
  });
});
