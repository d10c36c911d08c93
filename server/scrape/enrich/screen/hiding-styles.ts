/**
 * Whether CSS hides an element's text from a reader while leaving it in the page a model reads:
 * not displayed, invisible, transparent, too small to read, or moved off the screen. Read from
 * inline styles and from the page's own `<style>` rules with selectors linkedom can match; the
 * computed style of a real browser is not at hand here, so this errs towards "visible", and a
 * hidden element counts only when its text reads as an instruction (screen-page.ts).
 */

export type HidingReason =
  | 'not-displayed'
  | 'invisible'
  | 'transparent'
  | 'tiny-text'
  | 'off-screen'
  | 'clipped'
  | 'same-colour'
  /** Hidden from assistive technology: no reader of the page is meant to take it in. */
  | 'aria-hidden';

const MAX_STYLE_RULES = 2_000;
const MAX_STYLE_CHARS = 256 * 1024;

type Declarations = Map<string, string>;

function parseDeclarations(text: string): Declarations {
  const declarations: Declarations = new Map();
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const name = part.slice(0, colon).trim().toLowerCase();
    const value = part
      .slice(colon + 1)
      .replace(/!important/i, '')
      .trim()
      .toLowerCase();
    if (name !== '' && value !== '') declarations.set(name, value);
  }
  return declarations;
}

const px = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const found = /^(-?\d*\.?\d+)(px|pt|em|rem|%)?$/.exec(value.trim());
  if (found === null) return undefined;
  const amount = Number(found[1]);
  const unit = found[2] ?? 'px';
  return unit === 'pt'
    ? amount * 1.33
    : unit === 'em' || unit === 'rem'
      ? amount * 16
      : unit === '%'
        ? undefined
        : amount;
};

/** A colour with no alpha: transparent, rgba(…, 0), hsla(…, 0) or #rrggbb00. */
function isTransparent(colour: string | undefined): boolean {
  if (colour === undefined) return false;
  if (colour === 'transparent') return true;
  if (/^#[0-9a-f]{6}00$/.test(colour) || /^#[0-9a-f]{3}0$/.test(colour)) return true;
  const alpha = /^(?:rgba|hsla)\([^)]*[,/]\s*(0(?:\.0+)?|0?\.0+)\s*\)$/.exec(colour);
  return alpha !== null;
}

/** Colours written the same way (`#fff` and `#ffffff`, `white`) count as the same colour. */
function sameColour(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const canonical = (colour: string) => {
    const named: Record<string, string> = { white: '#ffffff', black: '#000000' };
    const value = named[colour] ?? colour.replace(/\s+/g, '');
    const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value);
    return short === null ? value : `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  };
  return canonical(a) === canonical(b);
}

const WHITE = new Set(['#fff', '#ffffff', 'white', 'rgb(255,255,255)', 'rgb(255, 255, 255)']);

/**
 * Why these declarations hide text, or undefined when they do not. `whiteIsHidden`: the page sets
 * no background of its own, so white text on it is white on white.
 */
export function hidingReason(declarations: Declarations, whiteIsHidden = false): HidingReason | undefined {
  const get = (name: string) => declarations.get(name);
  if (get('display') === 'none' || get('content-visibility') === 'hidden') return 'not-displayed';
  if (get('visibility') === 'hidden' || get('visibility') === 'collapse') return 'invisible';
  const opacity = Number(get('opacity') ?? '1');
  if (Number.isFinite(opacity) && opacity <= 0.05) return 'transparent';
  if (isTransparent(get('color'))) return 'transparent';
  const fontSize = px(get('font-size'));
  if (fontSize !== undefined && fontSize <= 2) return 'tiny-text';
  const position = get('position');
  if (position === 'absolute' || position === 'fixed') {
    for (const side of ['left', 'top', 'right', 'bottom']) {
      const offset = px(get(side));
      if (offset !== undefined && offset <= -500) return 'off-screen';
    }
  }
  const indent = px(get('text-indent'));
  if (indent !== undefined && indent <= -500) return 'off-screen';
  const transform = get('transform');
  if (transform !== undefined && /translate[xy]?\(\s*-\d{4,}/.test(transform)) return 'off-screen';
  const clip = get('clip') ?? '';
  const clipPath = get('clip-path') ?? '';
  if (
    /rect\(\s*0(?:px)?[\s,]+0(?:px)?[\s,]+0(?:px)?[\s,]+0(?:px)?\s*\)/.test(clip) ||
    /inset\(\s*(?:50|100)%/.test(clipPath)
  ) {
    return 'clipped';
  }
  const width = px(get('width') ?? get('max-width'));
  const height = px(get('height') ?? get('max-height'));
  if ((width === 0 || height === 0) && get('overflow') === 'hidden') return 'clipped';
  const background = get('background-color') ?? get('background');
  if (sameColour(get('color'), background)) return 'same-colour';
  if (whiteIsHidden && background === undefined && WHITE.has(get('color') ?? '')) return 'same-colour';
  return undefined;
}

export interface StyleRule {
  readonly selector: string;
  /** Why it hides; `white` rules hide only on a page without a background of its own. */
  readonly reason: HidingReason | 'white';
}

/** The page's hiding rules, and whether white text is invisible on it (no page background set). */
export interface PageStyles {
  readonly rules: StyleRule[];
  readonly whiteIsHidden: boolean;
}

/**
 * The page's style rules that hide what they select (top-level rules only; `@media` blocks and
 * selectors with pseudo-classes are skipped, since whether they apply depends on the screen).
 */
export function hidingRules(document: Document): PageStyles {
  const rules: StyleRule[] = [];
  let whiteIsHidden =
    !/background/i.test(document.body?.getAttribute('style') ?? '') &&
    !/background/i.test(document.documentElement?.getAttribute('style') ?? '');
  let chars = 0;
  for (const style of Array.from(document.querySelectorAll('style'))) {
    const text = (style.textContent ?? '').replace(/\/\*[\s\S]*?\*\//g, '');
    chars += text.length;
    if (chars > MAX_STYLE_CHARS) break;
    const topLevel = text.replace(/@[^{]+\{(?:[^{}]*\{[^}]*\})*[^{}]*\}/g, '');
    for (const match of topLevel.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      if (rules.length >= MAX_STYLE_RULES) return { rules, whiteIsHidden };
      const declarations = parseDeclarations(match[2] ?? '');
      if (
        /(?:^|[\s,])(?:html|body|:root)(?:$|[\s,.#[])/.test(match[1] ?? '') &&
        [...declarations.keys()].some((name) => name.startsWith('background'))
      ) {
        whiteIsHidden = false;
      }
      const reason: HidingReason | 'white' | undefined =
        hidingReason(declarations) ??
        (WHITE.has(declarations.get('color') ?? '') &&
        !declarations.has('background') &&
        !declarations.has('background-color')
          ? 'white'
          : undefined);
      if (reason === undefined) continue;
      for (const selector of (match[1] ?? '').split(',')) {
        const trimmed = selector.trim();
        if (trimmed !== '' && !trimmed.includes(':')) rules.push({ selector: trimmed, reason });
      }
    }
  }
  return { rules, whiteIsHidden };
}

/** Why the element itself (not its ancestors) is hidden, or undefined. */
export function elementHiding(
  element: Element,
  { rules, whiteIsHidden }: PageStyles,
): HidingReason | undefined {
  if (element.hasAttribute('hidden')) return 'not-displayed';
  if (element.getAttribute('aria-hidden') === 'true') return 'aria-hidden';
  const inline = element.getAttribute('style');
  if (inline !== null) {
    const reason = hidingReason(parseDeclarations(inline), whiteIsHidden);
    if (reason !== undefined) return reason;
  }
  for (const rule of rules) {
    if (rule.reason === 'white' && !whiteIsHidden) continue;
    try {
      if (element.matches(rule.selector)) return rule.reason === 'white' ? 'same-colour' : rule.reason;
    } catch {
      // A selector linkedom cannot parse: it cannot be judged here, so it hides nothing.
    }
  }
  return undefined;
}
