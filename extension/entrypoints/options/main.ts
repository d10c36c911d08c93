import '../../assets/ui.css';
import './options.css';
import { sendUiRequest } from '../../ui/send-ui-request';
import type { UiStatus } from '../../ui/ui-messages';
import { showActivity } from './activity-table';
import { showConnection } from './connection-view';
import { fillDonationForm, readDonationForm } from './donation-form';
import { elementById, showMessage } from '../../ui/page-elements';

/** How often the page asks for the state while open: the worker changes it by itself. */
const REFRESH_INTERVAL_MS = 1_500;

const ui = {
  pairForm: elementById<HTMLFormElement>('pair-form'),
  serverUrl: elementById<HTMLInputElement>('server-url'),
  code: elementById<HTMLInputElement>('pairing-code'),
  pair: elementById<HTMLButtonElement>('pair'),
  pairMessage: elementById('pair-message'),
  unpair: elementById<HTMLButtonElement>('unpair'),
  donationForm: elementById<HTMLFormElement>('donation-form'),
  saveDonation: elementById<HTMLButtonElement>('save-donation'),
  donationMessage: elementById('donation-message'),
  refreshActivity: elementById<HTMLButtonElement>('refresh-activity'),
  connectionState: elementById('connection-state'),
};

/** The donation form shows stored settings until the person starts changing it. */
let donationEdited = false;

const say = showMessage;

function show(status: UiStatus) {
  showConnection(status);
  // "Paired with …" is stale once the connection reports a problem; the problem speaks instead.
  if (status.problem !== undefined && ui.pairMessage.dataset.tone === 'ok') say(ui.pairMessage, '');
  if (!donationEdited) fillDonationForm(status.donation);
}

async function refresh() {
  try {
    show(await sendUiRequest({ type: 'getStatus' }));
    showActivity((await sendUiRequest({ type: 'getActivity' })).entries);
  } catch (error) {
    ui.connectionState.textContent = (error as Error).message;
    ui.connectionState.dataset.state = 'disconnected';
  }
}

async function pair(event: SubmitEvent) {
  event.preventDefault();
  const serverUrl = ui.serverUrl.value.trim();
  const code = ui.code.value.trim();
  // The worker judges the address itself (scheme, https off this machine) and says what is wrong.
  if (serverUrl === '') {
    say(ui.pairMessage, 'Enter the address of your team’s Tabhive server.', 'error');
    ui.serverUrl.focus();
    return;
  }
  if (code === '') {
    say(ui.pairMessage, 'Enter the pairing code a team admin gave you.', 'error');
    ui.code.focus();
    return;
  }
  ui.pair.disabled = true;
  say(ui.pairMessage, 'Pairing…');
  try {
    const answer = await sendUiRequest({ type: 'pair', serverUrl, code });
    if (answer.ok) {
      ui.code.value = '';
      show(answer.status);
      say(ui.pairMessage, `Paired with ${answer.status.team ?? 'the team'}.`, 'ok');
      elementById<HTMLButtonElement>('unpair').focus();
    } else {
      say(ui.pairMessage, answer.problem.message, 'error');
      (answer.problem.code === 'unreachable' || answer.problem.code === 'incompatible'
        ? ui.serverUrl
        : ui.code
      ).focus();
    }
  } catch (error) {
    say(ui.pairMessage, (error as Error).message, 'error');
  } finally {
    ui.pair.disabled = false;
  }
}

async function unpair() {
  ui.unpair.disabled = true;
  try {
    show(await sendUiRequest({ type: 'unpair' }));
    say(ui.pairMessage, 'This browser is no longer paired.', 'ok');
    ui.code.focus();
  } catch (error) {
    say(ui.pairMessage, (error as Error).message, 'error');
  } finally {
    ui.unpair.disabled = false;
  }
}

async function saveDonation(event: SubmitEvent) {
  event.preventDefault();
  const read = readDonationForm();
  if ('problem' in read) {
    say(ui.donationMessage, read.problem, 'error');
    return;
  }
  ui.saveDonation.disabled = true;
  try {
    const status = await sendUiRequest({ type: 'saveDonation', settings: read.settings });
    donationEdited = false;
    show(status);
    say(ui.donationMessage, 'Saved.', 'ok');
  } catch (error) {
    say(ui.donationMessage, (error as Error).message, 'error');
  } finally {
    ui.saveDonation.disabled = false;
  }
}

function main() {
  ui.pairForm.addEventListener('submit', (event) => void pair(event));
  ui.unpair.addEventListener('click', () => void unpair());
  ui.donationForm.addEventListener('submit', (event) => void saveDonation(event));
  ui.donationForm.addEventListener('input', () => {
    donationEdited = true;
    say(ui.donationMessage, '');
  });
  ui.refreshActivity.addEventListener('click', () => void refresh());
  void refresh();
  setInterval(() => void refresh(), REFRESH_INTERVAL_MS);
}

main();
