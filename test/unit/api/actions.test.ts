import { describe, expect, it } from 'vitest';
import { Action, Actions, actionWaitMs, MAX_ACTIONS } from '../../../shared/api/v2/actions';

const BOTH_OR_NEITHER = "Either 'milliseconds' or 'selector' must be provided, but not both.";

describe('Action', () => {
  it('fills in defaults and drops unknown keys', () => {
    expect(
      Actions.parse([
        { type: 'wait', milliseconds: 500 },
        { type: 'wait', selector: '#ready' },
        { type: 'click', selector: 'button', extra: 1 },
        { type: 'write', text: 'hello' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll' },
        { type: 'screenshot' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'return 1' },
        { type: 'pdf' },
      ]),
    ).toEqual([
      { type: 'wait', milliseconds: 500 },
      { type: 'wait', selector: '#ready' },
      { type: 'click', selector: 'button', all: false },
      { type: 'write', text: 'hello' },
      { type: 'press', key: 'Enter' },
      { type: 'scroll', direction: 'down' },
      { type: 'screenshot', fullPage: false },
      { type: 'scrape' },
      { type: 'executeJavascript', script: 'return 1' },
      { type: 'pdf', format: 'Letter', landscape: false, scale: 1 },
    ]);
  });

  it('keeps given options', () => {
    expect(Action.parse({ type: 'scroll', direction: 'up', selector: '#list' })).toEqual({
      type: 'scroll',
      direction: 'up',
      selector: '#list',
    });
    expect(Action.parse({ type: 'pdf', format: 'A4', landscape: true, scale: 0.5 })).toEqual({
      type: 'pdf',
      format: 'A4',
      landscape: true,
      scale: 0.5,
    });
    expect(
      Action.parse({
        type: 'screenshot',
        fullPage: true,
        quality: 90,
        viewport: { width: 800, height: 600 },
      }),
    ).toEqual({ type: 'screenshot', fullPage: true, quality: 90, viewport: { width: 800, height: 600 } });
  });

  it('needs exactly one of milliseconds and selector on wait', () => {
    for (const wait of [{ type: 'wait' }, { type: 'wait', milliseconds: 100, selector: '#a' }]) {
      const result = Action.safeParse(wait);
      expect(result.error?.issues).toEqual([expect.objectContaining({ message: BOTH_OR_NEITHER, path: [] })]);
    }
  });

  it.each([
    { type: 'wait', milliseconds: 0 },
    { type: 'wait', milliseconds: 1.5 },
    { type: 'click' },
    { type: 'write' },
    { type: 'press', key: 13 },
    { type: 'scroll', direction: 'left' },
    { type: 'screenshot', viewport: { width: 8000, height: 100 } },
    { type: 'screenshot', quality: 101 },
    { type: 'pdf', format: 'B5' },
    { type: 'pdf', scale: 3 },
    { type: 'hover', selector: 'a' },
  ])('rejects %j', (action) => {
    expect(Action.safeParse(action).success).toBe(false);
  });

  it('allows at most 50 actions', () => {
    const scrape = { type: 'scrape' };
    expect(Actions.safeParse(Array.from({ length: MAX_ACTIONS }, () => scrape)).success).toBe(true);
    const tooMany = Actions.safeParse(Array.from({ length: MAX_ACTIONS + 1 }, () => scrape));
    expect(tooMany.error?.issues.map((issue) => issue.message)).toEqual([
      'Number of actions cannot exceed 50',
    ]);
  });

  it('counts 1000 ms for each selector wait in the wait time', () => {
    const actions = Actions.parse([
      { type: 'wait', milliseconds: 1500 },
      { type: 'click', selector: 'a' },
      { type: 'wait', selector: '#x' },
    ]);
    expect(actionWaitMs(actions)).toBe(2500);
    expect(actionWaitMs([])).toBe(0);
  });
});
