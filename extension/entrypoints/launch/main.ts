import { browser } from 'wxt/browser';
import { writeHubSettings } from '../../utils/hub-settings';
import { parseLaunchLink } from '../../utils/launch-link';

/**
 * Start page of browsers a server launches: `launch.html#server=ws://…&token=…`. The fragment never
 * leaves the browser. When the page runs before the worker has seen it, it stores the settings
 * itself; either way the worker connects once they are stored.
 */
async function main() {
  const status = document.getElementById('status');
  const link = parseLaunchLink(location.href, browser.runtime.getURL('/').replace(/\/$/, ''));
  if (link === undefined) {
    if (status)
      status.textContent = 'This browser is connected to a Tabhive server when the server launches it.';
    return;
  }
  await writeHubSettings({ ...link, origin: 'launched' });
  history.replaceState(null, '', location.pathname);
  if (status) status.textContent = 'This browser works for a Tabhive server.';
}

void main();
