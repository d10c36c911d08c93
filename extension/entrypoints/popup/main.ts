import '../../assets/ui.css';
import './popup.css';
import { browser, type Browser } from 'wxt/browser';
import { captureTab, screenshotTab } from '../../ui/capture-tab';
import type { InPageCapture } from '../../page/capture-page';
import { connectionLabel } from '../../hub/connection-label';
import type { HandScrape } from '../../ui/convert-capture';
import { downloadName } from '../../ui/download-name';
import { scrapeOutput, TEXT_EXTENSIONS, type TextFormat } from '../../ui/scrape-output';
import { sendUiRequest } from '../../ui/send-ui-request';
import { targetTabId } from '../../ui/target-tab';
import type { UiStatus } from '../../ui/ui-messages';
import { showChallengeRequests } from './challenge-list';
import { createConverter } from './converter';
import { dataUrlToBlob, saveFile } from './save-file';
import { elementById, showMessage, type MessageTone } from '../../ui/page-elements';

type Format = TextFormat | 'screenshot';
type Scope = 'main' | 'whole';

const ui = {
  connection: elementById('connection'),
  title: elementById('page-title'),
  url: elementById('page-url'),
  scope: elementById<HTMLFieldSetElement>('scope'),
  text: elementById<HTMLTextAreaElement>('preview-text'),
  image: elementById<HTMLImageElement>('preview-image'),
  size: elementById('preview-size'),
  copy: elementById<HTMLButtonElement>('copy'),
  download: elementById<HTMLButtonElement>('download'),
  save: elementById<HTMLButtonElement>('save'),
  message: elementById('message'),
  openOptions: elementById<HTMLButtonElement>('open-options'),
};

let tab: Browser.tabs.Tab | undefined;
let capture: Promise<InPageCapture> | undefined;
/** Converting is the slow part on big pages, so each scope is converted once, when first shown. */
const scrapes = new Map<Scope, Promise<HandScrape>>();
/** Counts renders: a slow one that an input change overtook must not overwrite the newer view. */
let renders = 0;
let screenshot: Promise<string> | undefined;
const converter = createConverter();
let status: UiStatus | undefined;

const chosen = <T extends string>(name: string) =>
  (document.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value ?? '') as T;

const say = (text: string, tone?: MessageTone) => showMessage(ui.message, text, tone);

async function findTab(): Promise<Browser.tabs.Tab> {
  const id = targetTabId(location.search);
  if (id !== undefined) return browser.tabs.get(id);
  const [active] = await browser.tabs.query({ active: true, currentWindow: true });
  if (active === undefined) throw new Error('There is no tab to read.');
  return active;
}

function scrapeFor(scope: Scope): Promise<HandScrape> {
  let scrape = scrapes.get(scope);
  if (scrape === undefined) {
    scrape = convert(scope);
    scrapes.set(scope, scrape);
    // A failure is not kept: choosing the scope again tries again.
    scrape.catch(() => scrapes.delete(scope));
  }
  return scrape;
}

async function convert(scope: Scope): Promise<HandScrape> {
  if (tab === undefined || capture === undefined) throw new Error('There is no tab to read.');
  const working = scope === 'main' ? 'Finding the main content…' : 'Converting the whole page…';
  say(working);
  try {
    return await converter.convert(await capture, scope === 'main');
  } finally {
    if (ui.message.textContent === working) say('');
  }
}

/** Shows the chosen format and scope; every action works on what is shown. */
async function render(): Promise<void> {
  const turn = ++renders;
  const overtaken = () => turn !== renders;
  const format = chosen<Format>('format');
  ui.scope.disabled = format === 'screenshot';
  ui.text.hidden = format === 'screenshot';
  ui.image.hidden = format !== 'screenshot';
  ui.download.textContent = `Download .${format === 'screenshot' ? 'png' : TEXT_EXTENSIONS[format]}`;
  setActionsEnabled(false);
  try {
    if (format === 'screenshot') {
      if (tab === undefined) throw new Error('There is no tab to photograph.');
      screenshot ??= screenshotTab(tab);
      const image = await screenshot;
      if (overtaken()) return;
      ui.image.src = image;
      ui.image.alt = `Screenshot of ${tab.title ?? tab.url ?? 'the page'}`;
      ui.size.textContent = 'The visible part of the page';
    } else {
      const scrape = await scrapeFor(chosen<Scope>('scope'));
      if (overtaken()) return;
      const output = scrapeOutput(scrape, format);
      ui.text.value = output.text;
      ui.size.textContent = describeSize(output.text, format);
    }
    setActionsEnabled(true);
    if (ui.message.dataset.tone === 'error') say('');
  } catch (error) {
    if (format === 'screenshot') screenshot = undefined;
    if (overtaken()) return;
    ui.text.value = '';
    ui.size.textContent = '';
    say((error as Error).message, 'error');
  }
}

function describeSize(text: string, format: TextFormat): string {
  if (format === 'links') {
    const count = text === '' ? 0 : text.split('\n').length;
    return `${count} ${count === 1 ? 'link' : 'links'}`;
  }
  const words = text.split(/\s+/).filter(Boolean).length;
  return `${words.toLocaleString()} words, ${text.length.toLocaleString()} characters`;
}

function setActionsEnabled(enabled: boolean) {
  ui.copy.disabled = !enabled;
  ui.download.disabled = !enabled;
  ui.save.disabled = !enabled || !canSave(status);
}

function canSave(current: UiStatus | undefined): boolean {
  return current?.origin === 'paired' && (current.state === 'idle' || current.state === 'working');
}

async function copy(): Promise<void> {
  const format = chosen<Format>('format');
  try {
    if (format === 'screenshot') {
      if (screenshot === undefined) return;
      const blob = await dataUrlToBlob(await screenshot);
      await navigator.clipboard.write([new ClipboardItem({ [blob.type]: blob })]);
      say('Screenshot copied to the clipboard.', 'ok');
    } else {
      await navigator.clipboard.writeText(ui.text.value);
      say(
        `${format === 'markdown' ? 'Markdown' : format === 'html' ? 'HTML' : 'Links'} copied to the clipboard.`,
        'ok',
      );
    }
  } catch (error) {
    say(`Could not copy: ${(error as Error).message}`, 'error');
  }
}

async function download(): Promise<void> {
  const format = chosen<Format>('format');
  const title = tab?.title ?? '';
  const url = tab?.url ?? '';
  try {
    if (format === 'screenshot') {
      if (screenshot === undefined) return;
      saveFile(await dataUrlToBlob(await screenshot), downloadName(title, url, 'png'));
    } else {
      const scrape = await scrapeFor(chosen<Scope>('scope'));
      const output = scrapeOutput(scrape, format);
      saveFile(
        new Blob([output.text], { type: output.mimeType }),
        downloadName(scrape.title, scrape.url, output.extension),
      );
    }
    say('Download started.', 'ok');
  } catch (error) {
    say(`Could not download: ${(error as Error).message}`, 'error');
  }
}

async function saveToTeam(): Promise<void> {
  ui.save.disabled = true;
  say('Saving to the team’s index…');
  try {
    const scrape = await scrapeFor(chosen<Scope>('scope'));
    const answer = await sendUiRequest({
      type: 'savePage',
      page: {
        url: scrape.url,
        title: scrape.title,
        markdown: scrape.markdown,
        ...(scrape.description === undefined ? {} : { description: scrape.description }),
      },
    });
    if (answer.ok) say(`Saved to ${status?.team ?? 'the team'}’s index.`, 'ok');
    else say(`Not saved: ${answer.message}`, 'error');
  } catch (error) {
    say(`Not saved: ${(error as Error).message}`, 'error');
  } finally {
    ui.save.disabled = !canSave(status);
  }
}

function showStatus(current: UiStatus | undefined) {
  status = current;
  ui.connection.dataset.state = current?.state ?? 'unpaired';
  ui.connection.textContent = current === undefined ? 'Status unavailable' : connectionLabel(current);
  ui.connection.title = current?.problem?.message ?? current?.serverUrl ?? '';
  ui.save.hidden = current?.origin !== 'paired';
  if (current?.team !== undefined) ui.save.textContent = `Save to ${current.team}’s index`;
  ui.save.disabled = !canSave(current) || ui.copy.disabled;
}

async function main() {
  for (const input of document.querySelectorAll<HTMLInputElement>('input[type="radio"]')) {
    input.addEventListener('change', () => void render());
  }
  ui.copy.addEventListener('click', () => void copy());
  ui.download.addEventListener('click', () => void download());
  ui.save.addEventListener('click', () => void saveToTeam());
  ui.openOptions.addEventListener('click', () => void browser.runtime.openOptionsPage());

  // First: a task waiting for this person at a challenge page (challenge-list.ts).
  void showChallengeRequests().catch(() => undefined);
  // Scraping needs no server: a worker that cannot answer only hides the team's button.
  void sendUiRequest({ type: 'getStatus' }).then(showStatus, () => showStatus(undefined));
  try {
    tab = await findTab();
    ui.title.textContent = tab.title || 'Untitled page';
    ui.url.textContent = tab.url ?? '';
    ui.url.title = tab.url ?? '';
    capture = captureTab(tab);
    await render();
  } catch (error) {
    ui.title.textContent = 'Nothing to read here';
    say((error as Error).message, 'error');
  }
}

void main();
