import { describe, expect, it } from 'vitest';
import { keyDefinition } from '../../../extension/actions/key-definitions';

describe('key definitions', () => {
  it('knows named keys and their aliases', () => {
    expect(keyDefinition('Enter')).toEqual({ key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    expect(keyDefinition('Return')).toEqual(keyDefinition('Enter'));
    expect(keyDefinition('Esc')?.keyCode).toBe(27);
    expect(keyDefinition('ArrowDown')?.text).toBeUndefined();
  });

  it('types single characters', () => {
    expect(keyDefinition('a')).toEqual({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(keyDefinition('7')).toMatchObject({ code: 'Digit7', keyCode: 55 });
    expect(keyDefinition('é')).toMatchObject({ key: 'é', text: 'é' });
  });

  it('refuses names it does not know', () => {
    expect(keyDefinition('Hyper')).toBeUndefined();
  });
});
