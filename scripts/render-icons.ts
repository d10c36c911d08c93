// Renders extension/assets/icon.svg to the PNG sizes Chrome wants for the toolbar and the
// extensions page (manifest icons must be raster images), with the Chromium the tests use.
//
//   npx tsx scripts/render-icons.ts
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const SIZES = [16, 32, 48, 128];
const svg = await readFile('extension/assets/icon.svg', 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/lib/chromium/chromium',
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{width:${size}px;height:${size}px;display:block}</style>${svg}`,
    );
    await page
      .locator('svg')
      .screenshot({ path: `extension/public/icons/${size}.png`, omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
