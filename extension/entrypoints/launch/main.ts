import { isLaunchedBrowser } from '../../hub/hub-settings';

/**
 * Start page of browsers a server launches. It only says what the browser is for: the hub and the
 * token come with the extension's own copy (launch-config.ts), never from a page's address, so
 * opening this page, with or without anything after its `#`, changes nothing.
 */
async function main() {
  const status = document.getElementById('status');
  if (status === null) return;
  status.textContent = (await isLaunchedBrowser())
    ? 'This browser works for a Tabhive server.'
    : 'This browser is connected to a Tabhive server when the server launches it.';
}

void main();
