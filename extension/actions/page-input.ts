import { ActionError } from './action-error';
import type { CdpSession } from '../debugger/cdp-session';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';
import { keyDefinition } from './key-definitions';

interface Point {
  x: number;
  y: number;
  /** False for elements without a box (display:none, zero size), which a mouse cannot hit. */
  hittable: boolean;
}

/** Runs in the page: how many elements match (throws a SyntaxError for an invalid selector). */
function countMatches(selector: string): number {
  return document.querySelectorAll(selector).length;
}

/** Runs in the page: scrolls the index-th match into view and returns its centre. */
function centreOf(selector: string, index: number): { x: number; y: number; hittable: boolean } | null {
  const element = document.querySelectorAll(selector)[index];
  if (element === undefined) return null;
  element.scrollIntoView({ block: 'center', inline: 'center' });
  const box = element.getBoundingClientRect();
  return {
    x: box.left + box.width / 2,
    y: box.top + box.height / 2,
    hittable: box.width > 0 && box.height > 0,
  };
}

/** Runs in the page: a click without a pointer, for elements that have no box to aim at. */
function clickWithoutPointer(selector: string, index: number): void {
  (document.querySelectorAll(selector)[index] as HTMLElement | undefined)?.click();
}

/** Runs in the page: scrolls the page, or the element, by one screen. */
function scrollOnce(direction: 'up' | 'down', selector: string | null): void {
  const sign = direction === 'up' ? -1 : 1;
  if (selector === null) {
    window.scrollBy(0, sign * window.innerHeight);
    return;
  }
  const element = document.querySelector(selector);
  if (element === null) throw new Error(`no element matches ${selector}`);
  element.scrollBy(0, sign * element.clientHeight);
}

async function mouseClick(cdp: CdpSession, { x, y }: Point): Promise<void> {
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
}

/**
 * Clicks the first match, or every match, with real mouse events at the element's centre, so that
 * focus moves the way it does for a person (a following `write` types into a clicked input).
 */
export async function click(cdp: CdpSession, frameId: string, selector: string, all: boolean): Promise<void> {
  const { value: count } = await evaluateIsolated(cdp, frameId, callSource(countMatches, selector));
  if (count === 0) throw new ActionError(`no element matches ${selector}`);
  const clicks = all ? Number(count) : 1;
  for (let index = 0; index < clicks; index += 1) {
    const { value } = await evaluateIsolated(cdp, frameId, callSource(centreOf, selector, index));
    const point = value as Point | null;
    // An earlier click may have removed later matches.
    if (point === null) continue;
    if (point.hittable) await mouseClick(cdp, point);
    else await evaluateIsolated(cdp, frameId, callSource(clickWithoutPointer, selector, index));
  }
}

/** Types into the focused element; insertText fires the input events a keyboard would. */
export async function write(cdp: CdpSession, text: string): Promise<void> {
  await cdp.send('Input.insertText', { text });
}

export async function press(cdp: CdpSession, name: string): Promise<void> {
  const key = keyDefinition(name);
  if (key === undefined) throw new ActionError(`unknown key ${JSON.stringify(name)}`);
  const common = {
    key: key.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    nativeVirtualKeyCode: key.keyCode,
  };
  await cdp.send('Input.dispatchKeyEvent', {
    ...common,
    // keyDown with text also produces keypress/input; rawKeyDown is a key that types nothing.
    type: key.text === undefined ? 'rawKeyDown' : 'keyDown',
    ...(key.text === undefined ? {} : { text: key.text, unmodifiedText: key.text }),
  });
  await cdp.send('Input.dispatchKeyEvent', { ...common, type: 'keyUp' });
}

export async function scroll(
  cdp: CdpSession,
  frameId: string,
  direction: 'up' | 'down',
  selector: string | undefined,
): Promise<void> {
  await evaluateIsolated(cdp, frameId, callSource(scrollOnce, direction, selector ?? null));
}

/** Runs in the page. */
function matches(selector: string): boolean {
  return document.querySelector(selector) !== null;
}

/** Whether `selector` matches now; false while the page is between documents. */
export async function selectorPresent(cdp: CdpSession, frameId: string, selector: string): Promise<boolean> {
  try {
    return (await evaluateIsolated(cdp, frameId, callSource(matches, selector))).value === true;
  } catch (err) {
    if (err instanceof Error && /SyntaxError|not a valid selector/.test(err.message)) {
      throw new ActionError(err.message);
    }
    return false;
  }
}
