import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS_PATH } from '../../shared/api/tabhive/browser-pairing';
import { startExtensionBrowser } from '../helpers/extension-browser';
import { startFixtureSite } from '../helpers/fixture-site';
import { readmeScreenshot } from '../helpers/readme-screenshot';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let person: Awaited<ReturnType<typeof startExtensionBrowser>>;
let options: Page;

beforeAll(async () => {
  site = await startFixtureSite();
  // No pool browsers: the only browser the server can count is the one paired here.
  tabhive = await startTestTabhive({ browsers: 0 });
  person = await startExtensionBrowser();
  options = await person.context.newPage();
  await options.goto(`chrome-extension://${person.extensionId}/options.html`);
});
afterAll(async () => {
  await person?.close();
  await tabhive?.stop();
  await site?.close();
});

const connectionState = () => options.locator('#connection-state');

async function newPairingCode(): Promise<string> {
  const { status, json } = await tabhive.post(`${BROWSERS_PATH}/pairing-codes`, {});
  expect(status).toBe(201);
  return json.code as string;
}

describe('the options page', () => {
  it('starts unpaired and says why a wrong code does not pair', async () => {
    await expect.poll(() => connectionState().textContent()).toBe('Not paired');
    await options.getByLabel('Server URL').fill(tabhive.url);
    await options.getByLabel('Pairing code').fill('NOPE-NOPE');
    await options.getByRole('button', { name: 'Pair this browser', exact: true }).click();
    await expect.poll(() => options.locator('#pair-message').getAttribute('data-tone')).toBe('error');
    expect(await options.locator('#pair-message').textContent()).toMatch(/code/i);
    expect((await tabhive.get('/health')).json.browsers).toBe(0);
  });

  it('says when the server cannot be reached', async () => {
    await options.getByLabel('Server URL').fill('http://127.0.0.1:9');
    await options.getByLabel('Pairing code').fill(await newPairingCode());
    await options.getByRole('button', { name: 'Pair this browser', exact: true }).click();
    await expect.poll(() => options.locator('#pair-message').getAttribute('data-tone')).toBe('error');
    expect(await options.locator('#pair-message').textContent()).toMatch(/reach/i);
  });

  it('pairs with a running server: the status turns to connected and the server counts the browser', async () => {
    await options.getByLabel('Server URL').fill(tabhive.url);
    await options.getByLabel('Pairing code').fill(await newPairingCode());
    await options.getByRole('button', { name: 'Pair this browser', exact: true }).click();
    await expect.poll(() => connectionState().textContent(), { timeout: 15_000 }).toBe('Connected');
    expect(await options.locator('#fact-server').textContent()).toBe(tabhive.url);
    await expect.poll(async () => (await tabhive.get('/health')).json.browsers).toBe(1);
    expect(await options.getByRole('button', { name: 'Pair this browser', exact: true }).isVisible()).toBe(
      false,
    );
    expect(await options.getByRole('button', { name: 'Unpair this browser' }).isVisible()).toBe(true);
  });

  it('saves what the person lends the team, and the server learns it', async () => {
    await options.getByLabel('Allowed domains').fill('https://127.0.0.1/some/page\nhive.test');
    await options.getByLabel('Maximum tabs at once').fill('3');
    await options.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => options.locator('#donation-message').textContent()).toBe('Saved.');
    expect(await options.getByLabel('Allowed domains').inputValue()).toBe('127.0.0.1\nhive.test');
    await expect
      .poll(async () => (await tabhive.get(BROWSERS_PATH)).json.browsers[0], { timeout: 15_000 })
      .toMatchObject({ connected: true, allowedDomains: ['127.0.0.1', 'hive.test'], maxTabs: 3 });
  });

  it('lists the tasks the browser ran for the team', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', { url: site.url('/field-notes.html') });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('A spring inspection');
    await options.getByRole('button', { name: 'Refresh' }).click();
    const row = options.getByRole('row', { name: /field-notes\.html/ });
    await expect.poll(() => row.textContent()).toMatch(/Done/);
    await options.locator('body').screenshot({ path: readmeScreenshot('options-paired.png') });
  });

  it('shows the popup connected, and saves the page to the team’s index', async () => {
    const article = await person.context.newPage();
    await article.goto(site.url('/field-notes.html'));
    const popup = await person.openExtensionWindow(`popup.html?tab=${await person.tabIdOf(article)}`);
    await expect.poll(() => popup.locator('#connection').textContent()).toBe('Connected');
    const save = popup.getByRole('button', { name: /^Save to .+’s index$/ });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await expect.poll(() => popup.locator('#message').textContent()).toMatch(/^Saved to .+’s index\.$/);
    const indexed = await tabhive.tabhive.stores.searchIndex.get('default', site.url('/field-notes.html'));
    expect(indexed).toMatchObject({ title: 'Field notes: a spring inspection', source: 'donated' });
    await popup.close();
    await article.close();
  });

  it('points out a line that is not a domain instead of saving it', async () => {
    await options.getByLabel('Allowed domains').fill('hive.test\nnot a domain!');
    await options.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => options.locator('#donation-message').getAttribute('data-tone')).toBe('error');
    expect(await options.locator('#allowed-domains-error').textContent()).toBe(
      'Not a domain: not a domain!. Write host names such as example.com, one per line.',
    );
    expect(await options.locator('#donation-message').textContent()).toMatch(/^Not saved/);
    expect(await options.getByLabel('Allowed domains').getAttribute('aria-invalid')).toBe('true');
    await options.getByLabel('Allowed domains').fill('127.0.0.1\nhive.test');
    await options.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => options.locator('#donation-message').textContent()).toBe('Saved.');
    expect(await options.getByLabel('Allowed domains').getAttribute('aria-invalid')).toBe('false');
  });

  it('unpairs: the server no longer counts the browser', async () => {
    await options.getByRole('button', { name: 'Unpair this browser' }).click();
    await expect.poll(() => connectionState().textContent()).toBe('Not paired');
    await expect.poll(async () => (await tabhive.get('/health')).json.browsers).toBe(0);
    expect(await options.getByRole('button', { name: 'Pair this browser', exact: true }).isVisible()).toBe(
      true,
    );
  });

  it('says plainly when the team revokes the browser', async () => {
    await options.getByLabel('Pairing code').fill(await newPairingCode());
    await options.getByRole('button', { name: 'Pair this browser', exact: true }).click();
    await expect.poll(() => connectionState().textContent(), { timeout: 15_000 }).toBe('Connected');
    const { json } = await tabhive.get(BROWSERS_PATH);
    const paired = json.browsers.find((entry: { connected: boolean }) => entry.connected);
    const revoked = await fetch(`${tabhive.url}${BROWSERS_PATH}/${paired.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(revoked.status).toBe(200);
    const problem = options.getByRole('alert');
    await expect.poll(() => problem.textContent(), { timeout: 15_000 }).toMatch(/revoked/);
    expect(await problem.textContent()).toMatch(/Pair it again/);
    // A new code pairs it again without unpairing first.
    expect(await options.getByRole('button', { name: 'Pair this browser', exact: true }).isVisible()).toBe(
      true,
    );
    await options.locator('body').screenshot({ path: readmeScreenshot('options-revoked.png') });
  });
});
