import type { BrandingProfile } from '../../shared/branding/branding-profile';

/**
 * Runs inside the page (serialised with toString and evaluated in an isolated world, like
 * capturePage), so it must be self-contained. It reads computed styles, which only the live page
 * has: colours weighted by the area they cover, the fonts of body text, headings and code, the
 * sizes and weights of the type scale, the page's radius and spacing unit, and its buttons.
 */
export function captureBranding(): BrandingProfile {
  const MAX_ELEMENTS = 3000;
  const hex = (css: string): string | undefined => {
    const match = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?\s*\)/.exec(css);
    if (!match) return undefined;
    const alpha = match[4] === undefined ? 1 : parseFloat(match[4]) / (match[4].endsWith('%') ? 100 : 1);
    // Half-transparent layers show what is under them; they say little about the brand.
    if (alpha < 0.5) return undefined;
    return `#${[match[1], match[2], match[3]]
      .map((part) => Math.round(Number(part)).toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase()}`;
  };
  const rgb = (colour: string) =>
    [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16) / 255) as [number, number, number];
  const saturation = (colour: string) => {
    const [r, g, b] = rgb(colour);
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    return max === 0 ? 0 : (max - min) / max;
  };
  const luminance = (colour: string) => {
    const [r, g, b] = rgb(colour);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const tally = (counts: Map<string, number>, key: string | undefined, weight: number) => {
    if (key !== undefined && weight > 0) counts.set(key, (counts.get(key) ?? 0) + weight);
  };
  const ranked = (counts: Map<string, number>) =>
    [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key);
  const stack = (family: string) =>
    family
      .split(',')
      .map((name) => name.trim().replace(/^["']|["']$/g, ''))
      .filter(Boolean);
  const absolute = (url: string | null | undefined) => {
    if (!url) return null;
    try {
      return new URL(url, document.baseURI).href;
    } catch {
      return null;
    }
  };
  const styleOf = (selector: string) => {
    const element = document.querySelector(selector);
    return element ? getComputedStyle(element) : undefined;
  };

  const bodyStyle = getComputedStyle(document.body);
  const background =
    hex(bodyStyle.backgroundColor) ??
    hex(getComputedStyle(document.documentElement).backgroundColor) ??
    '#FFFFFF';
  const textPrimary = hex(bodyStyle.color) ?? '#000000';

  const chromatic = new Map<string, number>();
  const textColours = new Map<string, number>();
  const radii = new Map<string, number>();
  const spacings = new Map<number, number>();
  const elements = Array.from(document.body.querySelectorAll('*')).slice(0, MAX_ELEMENTS);
  for (const element of elements) {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = element.getBoundingClientRect();
    const area = Math.min(box.width * box.height, 400_000);
    const fill = hex(style.backgroundColor);
    if (fill !== undefined && saturation(fill) > 0.25) tally(chromatic, fill, area);
    const ownText = Array.from(element.childNodes).reduce(
      (length, node) =>
        length + (node.nodeType === Node.TEXT_NODE ? (node.textContent ?? '').trim().length : 0),
      0,
    );
    const ink = hex(style.color);
    if (ink !== undefined && ownText > 0) {
      tally(textColours, ink, ownText);
      if (saturation(ink) > 0.25) tally(chromatic, ink, ownText * 20);
    }
    if (style.borderTopLeftRadius !== '0px' && box.width > 0) tally(radii, style.borderTopLeftRadius, 1);
    for (const value of [style.paddingTop, style.paddingLeft, style.marginTop, style.marginBottom]) {
      const px = parseFloat(value);
      if (px > 0 && px <= 64) spacings.set(px, (spacings.get(px) ?? 0) + 1);
    }
  }

  const buttons = Array.from(
    document.querySelectorAll('button, [role=button], input[type=submit], a.btn, a.button, .btn, .button'),
  ).filter((element) => element.getBoundingClientRect().width > 0);
  const buttonStyle = (element: Element | undefined) => {
    if (element === undefined) return undefined;
    const style = getComputedStyle(element);
    return {
      ...(hex(style.backgroundColor) === undefined ? {} : { background: hex(style.backgroundColor) }),
      ...(hex(style.color) === undefined ? {} : { textColor: hex(style.color) }),
      ...(style.borderTopWidth !== '0px' && hex(style.borderTopColor) !== undefined
        ? { borderColor: hex(style.borderTopColor) }
        : {}),
      borderRadius: style.borderTopLeftRadius,
    };
  };
  const filled = buttons.find((element) => {
    const fill = hex(getComputedStyle(element).backgroundColor);
    return fill !== undefined && saturation(fill) > 0.25;
  });
  const outlined = buttons.find((element) => element !== filled);

  const link = hex(styleOf('a[href]')?.color ?? '');
  const primaryFromButton = filled === undefined ? undefined : hex(getComputedStyle(filled).backgroundColor);
  const palette = ranked(chromatic).filter((colour) => colour !== primaryFromButton);
  const primary = primaryFromButton ?? palette.shift();
  const secondary = palette.find((colour) => colour !== link);
  const accent =
    link !== undefined && link !== primary && link !== secondary
      ? link
      : palette.find((c) => c !== secondary);

  const headingStyle = styleOf('h1') ?? styleOf('h2');
  const codeStyle = styleOf('code, pre');
  const primaryStack = stack(bodyStyle.fontFamily);
  const headingStack = headingStyle ? stack(headingStyle.fontFamily) : undefined;
  const fonts = [
    { family: primaryStack[0] ?? 'serif', role: 'body' },
    ...(headingStack?.[0] && headingStack[0] !== primaryStack[0]
      ? [{ family: headingStack[0], role: 'heading' }]
      : []),
    ...(codeStyle && stack(codeStyle.fontFamily)[0]
      ? [{ family: stack(codeStyle.fontFamily)[0] as string, role: 'code' }]
      : []),
  ];
  const fontSizes: Record<string, string> = { body: bodyStyle.fontSize };
  const lineHeights: Record<string, number> = {};
  for (const tag of ['h1', 'h2', 'h3', 'small']) {
    const style = styleOf(tag);
    if (style) fontSizes[tag] = style.fontSize;
  }
  const ratio = (style: CSSStyleDeclaration | undefined) => {
    const value = style ? parseFloat(style.lineHeight) / parseFloat(style.fontSize) : NaN;
    return Number.isFinite(value) ? Math.round(value * 100) / 100 : undefined;
  };
  const bodyLine = ratio(bodyStyle);
  const headingLine = ratio(headingStyle);
  if (bodyLine !== undefined) lineHeights.body = bodyLine;
  if (headingLine !== undefined) lineHeights.heading = headingLine;

  // The spacing unit: 8 when most common spacings are multiples of 8, else 4 (design systems use one or the other).
  const common = [...spacings.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
  const baseUnit =
    common.length > 0 && common.filter(([px]) => px % 8 === 0).length * 2 >= common.length ? 8 : 4;
  const ogImage = absolute(document.querySelector('meta[property="og:image"]')?.getAttribute('content'));
  const logoElement = document.querySelector(
    'img[src*="logo" i], img[alt*="logo" i], img[class*="logo" i], [class*="logo" i] img, header img, a[href="/"] img',
  );
  const logo = absolute(logoElement?.getAttribute('src'));
  const favicon =
    absolute(document.querySelector('link[rel~="icon" i]')?.getAttribute('href')) ?? absolute('/favicon.ico');
  const brandName =
    document.querySelector('meta[property="og:site_name"]')?.getAttribute('content')?.trim() ||
    document.title
      .split(/\s[|–—-]\s/)
      .pop()
      ?.trim() ||
    undefined;
  const textSecondary = ranked(textColours).find(
    (colour) => colour !== textPrimary && saturation(colour) <= 0.25,
  );

  return {
    colorScheme: luminance(background) < 0.5 ? 'dark' : 'light',
    ...(brandName ? { brandName } : {}),
    logo,
    fonts,
    colors: {
      ...(primary === undefined ? {} : { primary }),
      ...(secondary === undefined ? {} : { secondary }),
      ...(accent === undefined ? {} : { accent }),
      background,
      textPrimary,
      ...(textSecondary === undefined ? {} : { textSecondary }),
      ...(link === undefined ? {} : { link }),
    },
    typography: {
      fontFamilies: {
        primary: primaryStack[0] ?? 'serif',
        ...(headingStack?.[0] ? { heading: headingStack[0] } : {}),
        ...(codeStyle && stack(codeStyle.fontFamily)[0]
          ? { code: stack(codeStyle.fontFamily)[0] as string }
          : {}),
      },
      fontStacks: { primary: primaryStack, ...(headingStack ? { heading: headingStack } : {}) },
      fontSizes,
      fontWeights: {
        regular: Number(bodyStyle.fontWeight) || 400,
        ...(headingStyle ? { bold: Number(headingStyle.fontWeight) || 700 } : {}),
      },
      lineHeights,
    },
    spacing: { baseUnit, borderRadius: ranked(radii)[0] ?? '0px' },
    components: {
      ...(filled === undefined ? {} : { buttonPrimary: buttonStyle(filled) }),
      ...(outlined === undefined ? {} : { buttonSecondary: buttonStyle(outlined) }),
    },
    images: { logo, favicon, ogImage },
  };
}
