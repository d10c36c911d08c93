import { fileURLToPath } from 'node:url';

/** Where `npm run build` (wxt build) puts the extension. */
export const DEFAULT_EXTENSION_DIR = fileURLToPath(new URL('../../../.output/chrome-mv3', import.meta.url));
