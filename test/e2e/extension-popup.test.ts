import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtensionBrowser } from '../helpers/extension-browser';
import { startFixtureSite } from '../helpers/fixture-site';
import { readmeScreenshot } from '../helpers/readme-screenshot';

const MAIN_TEXT = 'look for eggs standing upright in the cells';
const FOOTER_TEXT = 'Hive Keepers Guild';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let person: Awaited<ReturnType<typeof startExtensionBrowser>>;
let article: Page;
let popup: Page;

beforeAll(async () => {
  site = await startFixtureSite();
  person = await startExtensionBrowser();
  await person.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  article = await person.context.newPage();
  await article.goto(site.url('/field-notes.html'));
  popup = await person.openExtensionWindow(`popup.html?tab=${await person.tabIdOf(article)}`);
});
afterAll(async () => {
  await person?.close();
  await site?.close();
});

const preview = () => popup.getByLabel('Preview');

describe('the popup, on a page in the browser without any server', () => {
  it('shows the page’s main content as Markdown, without its footer', async () => {
    await expect.poll(() => preview().inputValue()).toContain(MAIN_TEXT);
    const markdown = await preview().inputValue();
    expect(markdown).toMatch(/^# A spring inspection/m);
    expect(markdown).toContain('- Frames of bees and frames of brood');
    expect(markdown).toContain(`[getting started guide](${site.url('/docs/getting-started.html')})`);
    expect(markdown).not.toContain(FOOTER_TEXT);
    expect(markdown).not.toContain('Shop');
    await expect
      .poll(() => popup.getByRole('heading', { level: 2 }).textContent())
      .toBe('Field notes: a spring inspection');
    await popup.locator('body').screenshot({ path: readmeScreenshot('popup-markdown.png') });
    await popup.emulateMedia({ colorScheme: 'dark' });
    await popup.locator('body').screenshot({ path: readmeScreenshot('popup-markdown-dark.png') });
    await popup.emulateMedia({ colorScheme: 'light' });
  });

  it('copies the Markdown to the clipboard', async () => {
    await popup.getByRole('button', { name: 'Copy' }).click();
    await expect
      .poll(() => popup.getByRole('status').textContent())
      .toBe('Markdown copied to the clipboard.');
    const copied = await popup.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await preview().inputValue());
    expect(copied).toContain(MAIN_TEXT);
  });

  it('downloads the Markdown as a .md file named after the page', async () => {
    const downloaded = popup.waitForEvent('download');
    await popup.getByRole('button', { name: 'Download .md' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('field-notes-a-spring-inspection.md');
    const content = await readFile(await download.path(), 'utf8');
    expect(content).toContain(MAIN_TEXT);
    expect(content).not.toContain(FOOTER_TEXT);
  });

  it('converts the whole page, footer included, when asked', async () => {
    await popup.getByLabel('Whole page').check();
    await expect.poll(() => preview().inputValue()).toContain(FOOTER_TEXT);
    expect(await preview().inputValue()).toContain(MAIN_TEXT);
    await popup.getByLabel('Main content').check();
    await expect.poll(() => preview().inputValue()).not.toContain(FOOTER_TEXT);
  });

  it('shows cleaned HTML and the page’s links', async () => {
    await popup.getByLabel('HTML').check();
    await expect.poll(() => preview().inputValue()).toContain('<h2>What to write down</h2>');
    expect(await preview().inputValue()).not.toContain('<style');
    await expect(popup.getByRole('button', { name: 'Download .html' }).isEnabled()).resolves.toBe(true);

    await popup.getByLabel('Links').check();
    await expect.poll(() => preview().inputValue()).toBe(site.url('/docs/getting-started.html'));
    await popup.getByLabel('Whole page').check();
    await expect.poll(() => preview().inputValue()).toContain(site.url('/imprint.html'));
    expect((await preview().inputValue()).split('\n')).toContain(site.url('/shop.html'));
    await popup.getByLabel('Main content').check();
  });

  it('takes a screenshot of the tab and downloads it as a PNG', async () => {
    await popup.getByLabel('Screenshot').check();
    const image = popup.getByRole('img', { name: /Screenshot of Field notes/ });
    await expect.poll(() => image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const downloaded = popup.waitForEvent('download');
    await popup.getByRole('button', { name: 'Download .png' }).click();
    const file = await readFile(await (await downloaded).path());
    expect(file.subarray(1, 4).toString('latin1')).toBe('PNG');
    await popup.getByLabel('Markdown').check();
  });

  it('can be worked with the keyboard alone', async () => {
    await popup.getByLabel('Markdown').focus();
    await popup.keyboard.press('ArrowRight');
    await expect.poll(() => popup.getByLabel('HTML').isChecked()).toBe(true);
    await popup.keyboard.press('ArrowLeft');
    await expect.poll(() => popup.getByLabel('Markdown').isChecked()).toBe(true);
    // Tab from the formats reaches the scope switch, the preview and then the Copy button.
    await popup.keyboard.press('Tab');
    expect(await popup.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('main');
    await popup.keyboard.press('Tab');
    expect(await popup.evaluate(() => document.activeElement?.id)).toBe('preview-text');
    await popup.keyboard.press('Tab');
    await popup.keyboard.press('Enter');
    await expect
      .poll(() => popup.getByRole('status').textContent())
      .toBe('Markdown copied to the clipboard.');
  });

  it('says plainly when a page cannot be read', async () => {
    const settings = await person.context.newPage();
    await settings.goto('chrome://version');
    const refused = await person.openExtensionWindow(`popup.html?tab=${await person.tabIdOf(settings)}`);
    await expect
      .poll(() => refused.getByRole('status').textContent())
      .toBe('This is one of the browser’s own pages; extensions may not read it.');
    expect(await refused.getByRole('button', { name: 'Copy' }).isDisabled()).toBe(true);
    await refused.close();
    await settings.close();
  });
});
