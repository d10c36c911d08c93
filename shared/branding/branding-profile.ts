import { z } from 'zod';

const Colour = z.string().regex(/^#[0-9A-F]{6}$/);
const ButtonStyle = z.object({
  background: Colour.optional(),
  textColor: Colour.optional(),
  borderColor: Colour.optional(),
  borderRadius: z.string().optional(),
});

/**
 * The `branding` format (docs/wire-contract.md §16), modelled on the Firecrawl SDK's `BrandingProfile`:
 * what the extension measured in the live page (extension/page/capture-branding.ts). Colours are
 * `#RRGGBB`; sizes keep their CSS units. Fields the page gave no evidence for are left out.
 */
export const BrandingProfile = z.object({
  colorScheme: z.enum(['light', 'dark']),
  brandName: z.string().optional(),
  logo: z.string().nullable(),
  fonts: z.array(z.object({ family: z.string(), role: z.string() })),
  colors: z.object({
    primary: Colour.optional(),
    secondary: Colour.optional(),
    accent: Colour.optional(),
    background: Colour,
    textPrimary: Colour,
    textSecondary: Colour.optional(),
    link: Colour.optional(),
  }),
  typography: z.object({
    fontFamilies: z.object({
      primary: z.string(),
      heading: z.string().optional(),
      code: z.string().optional(),
    }),
    fontStacks: z.object({ primary: z.array(z.string()), heading: z.array(z.string()).optional() }),
    fontSizes: z.record(z.string(), z.string()),
    fontWeights: z.record(z.string(), z.number()),
    lineHeights: z.record(z.string(), z.number()),
  }),
  spacing: z.object({ baseUnit: z.number(), borderRadius: z.string() }),
  components: z.object({ buttonPrimary: ButtonStyle.optional(), buttonSecondary: ButtonStyle.optional() }),
  images: z.object({
    logo: z.string().nullable(),
    favicon: z.string().nullable(),
    ogImage: z.string().nullable(),
  }),
});
export type BrandingProfile = z.infer<typeof BrandingProfile>;
