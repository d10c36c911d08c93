/** What Input.dispatchKeyEvent needs to press one key as a keyboard would. */
export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** The character the key types; keys with text fire keypress/input (Enter submits forms). */
  text?: string;
}

const NAMED_KEYS: Record<string, KeyDefinition> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
};

/** Names callers use for the same keys (Playwright's, which Firecrawl passes through, and DOM's). */
const ALIASES: Record<string, string> = {
  Return: 'Enter',
  Esc: 'Escape',
  ' ': 'Space',
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
};

/** The definition of a named key or a single character; undefined for names we do not know. */
export function keyDefinition(name: string): KeyDefinition | undefined {
  const named = NAMED_KEYS[ALIASES[name] ?? name];
  if (named !== undefined) return named;
  if ([...name].length !== 1) return undefined;
  const upper = name.toUpperCase();
  const isLetter = /^[A-Z]$/.test(upper);
  const isDigit = /^[0-9]$/.test(name);
  return {
    key: name,
    code: isLetter ? `Key${upper}` : isDigit ? `Digit${name}` : '',
    keyCode: isLetter || isDigit ? upper.charCodeAt(0) : 0,
    text: name,
  };
}
