import { MAP_POINT_SOURCE } from './map-point';
import { ViewerCloseCode } from './viewer-messages';

/** Where the page keeps the API key: this tab only, gone when it closes. */
const KEY_ITEM = 'tabhive.liveView.apiKey';

const STYLE = `
:root { color-scheme: dark; font: 14px/1.4 system-ui, sans-serif; }
body { margin: 0; background: #16181d; color: #e8e8ea; }
header { display: flex; gap: .5rem; align-items: center; padding: .4rem .6rem; background: #23262e; }
#address { display: flex; flex: 1; gap: .4rem; }
#url { flex: 1; padding: .3rem .5rem; border-radius: 4px; border: 1px solid #444; background: #111; color: inherit; }
button { padding: .3rem .7rem; border-radius: 4px; border: 1px solid #555; background: #333; color: inherit; cursor: pointer; }
#end { border-color: #a33; }
#status { white-space: nowrap; opacity: .8; }
main { display: flex; justify-content: center; padding: .5rem; }
#view { display: block; max-width: 100%; max-height: calc(100vh - 4rem); outline: none; background: #000; user-select: none; }
body.interactive #view:focus { box-shadow: 0 0 0 2px #4a8df8; }
#key-form { max-width: 28rem; margin: 3rem auto; display: grid; gap: .6rem; }
#key { padding: .4rem .5rem; border-radius: 4px; border: 1px solid #444; background: #111; color: inherit; }
#key-error { color: #f88; min-height: 1.4em; margin: 0; }
[hidden] { display: none !important; }
`;

/**
 * The page's script. It asks for the team's API key (kept in sessionStorage), opens the socket,
 * shows each frame and acknowledges it once drawn; the interactive view sends the mouse, keys,
 * pasted text and the address bar. No template literals below: the text is inlined as is.
 */
const SCRIPT = `
(function () {
'use strict';
${MAP_POINT_SOURCE}
var interactive = document.body.classList.contains('interactive');
var view = document.getElementById('view');
var statusText = document.getElementById('status');
var keyForm = document.getElementById('key-form');
var keyInput = document.getElementById('key');
var keyError = document.getElementById('key-error');
var urlInput = document.getElementById('url');
var socket = null;
var frame = null;
var sessionId = null;
var moveScheduled = null;
var KEY_ITEM = ${JSON.stringify(KEY_ITEM)};
var CLOSE = ${JSON.stringify(ViewerCloseCode)};

function setStatus(text) { statusText.textContent = text; }
function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }
function sendInput(input) { if (interactive && frame) send({ type: 'input', input: input }); }

function askForKey(problem) {
  keyError.textContent = problem || '';
  keyForm.hidden = false;
  keyInput.focus();
  setStatus('Waiting for the API key');
}

function openSocket(apiKey) {
  var url = new URL(location.pathname.replace(/\\/+$/, '') + '/socket', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(url.href);
  setStatus('Connecting…');
  socket.onopen = function () { send({ type: 'auth', apiKey: apiKey }); };
  socket.onmessage = function (event) { receive(JSON.parse(event.data)); };
  socket.onclose = function (event) {
    socket = null;
    if (event.code === CLOSE.UNAUTHORIZED || event.code === CLOSE.FORBIDDEN) {
      sessionStorage.removeItem(KEY_ITEM);
      askForKey(event.code === CLOSE.FORBIDDEN ? "This API key's team cannot open this session." : 'This API key is not valid.');
    } else if (event.code === CLOSE.ENDED) {
      setStatus('The session has ended.');
    } else {
      setStatus('Disconnected' + (event.reason ? ': ' + event.reason : '.'));
    }
  };
}

function receive(message) {
  if (message.type === 'ready') {
    sessionId = message.sessionId;
    keyForm.hidden = true;
    setStatus(interactive ? 'Live' : 'Live (watching only)');
    document.body.dataset.ready = 'true';
    if (interactive) view.focus();
  } else if (message.type === 'frame') {
    var shown = message;
    view.src = 'data:image/jpeg;base64,' + message.data;
    view.decode().catch(function () {}).then(function () {
      frame = shown;
      document.body.dataset.frames = String(Number(document.body.dataset.frames || '0') + 1);
      send({ type: 'ack', frameSessionId: shown.frameSessionId });
    });
  } else if (message.type === 'navigated') {
    if (urlInput && document.activeElement !== urlInput) urlInput.value = message.url;
  } else if (message.type === 'error') {
    setStatus(message.message);
  }
}

function modifiers(event) {
  return (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0);
}
function point(event) {
  var rect = view.getBoundingClientRect();
  return mapPoint(event.clientX - rect.left, event.clientY - rect.top, rect.width, rect.height, frame);
}
var BUTTONS = ['left', 'middle', 'right'];
function mouse(type, event, extra) {
  var at = point(event);
  var input = { kind: 'mouse', type: type, x: at.x, y: at.y, modifiers: modifiers(event),
    button: 'none', clickCount: 0 };
  for (var key in extra) input[key] = extra[key];
  sendInput(input);
}

keyForm.addEventListener('submit', function (event) {
  event.preventDefault();
  var apiKey = keyInput.value.trim();
  if (!apiKey) return;
  sessionStorage.setItem(KEY_ITEM, apiKey);
  keyForm.hidden = true;
  openSocket(apiKey);
});

if (interactive) {
  view.addEventListener('mousedown', function (event) {
    event.preventDefault();
    view.focus();
    mouse('mousePressed', event, { button: BUTTONS[event.button] || 'left', clickCount: Math.min(event.detail || 1, 3) });
  });
  view.addEventListener('mouseup', function (event) {
    event.preventDefault();
    mouse('mouseReleased', event, { button: BUTTONS[event.button] || 'left', clickCount: Math.min(event.detail || 1, 3) });
  });
  view.addEventListener('mousemove', function (event) {
    if (moveScheduled) { moveScheduled = event; return; }
    moveScheduled = event;
    requestAnimationFrame(function () {
      var last = moveScheduled;
      moveScheduled = null;
      mouse('mouseMoved', last, { button: last.buttons & 1 ? 'left' : last.buttons & 2 ? 'right' : 'none' });
    });
  });
  view.addEventListener('wheel', function (event) {
    event.preventDefault();
    var scale = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1;
    mouse('mouseWheel', event, { deltaX: event.deltaX * scale, deltaY: event.deltaY * scale });
  }, { passive: false });
  view.addEventListener('contextmenu', function (event) { event.preventDefault(); });
  view.addEventListener('keydown', function (event) {
    var mods = modifiers(event);
    // Ctrl/Cmd+V stays with this page so that its paste event brings the text.
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v') return;
    event.preventDefault();
    var text = Array.from(event.key).length === 1 ? event.key : event.key === 'Enter' ? '\\r' : undefined;
    if (event.ctrlKey || event.metaKey || event.altKey) text = undefined;
    var input = { kind: 'key', type: text === undefined ? 'rawKeyDown' : 'keyDown', key: event.key.slice(0, 32),
      code: event.code.slice(0, 32), windowsVirtualKeyCode: event.keyCode & 255, modifiers: mods };
    if (text !== undefined) input.text = text;
    sendInput(input);
  });
  view.addEventListener('keyup', function (event) {
    event.preventDefault();
    sendInput({ kind: 'key', type: 'keyUp', key: event.key.slice(0, 32), code: event.code.slice(0, 32),
      windowsVirtualKeyCode: event.keyCode & 255, modifiers: modifiers(event) });
  });
  document.addEventListener('paste', function (event) {
    if (document.activeElement !== view) return;
    event.preventDefault();
    var text = (event.clipboardData && event.clipboardData.getData('text')) || '';
    if (text) sendInput({ kind: 'text', text: text.slice(0, 10000) });
  });
  document.getElementById('address').addEventListener('submit', function (event) {
    event.preventDefault();
    if (urlInput.value.trim()) send({ type: 'navigate', url: urlInput.value.trim() });
    view.focus();
  });
  document.getElementById('end').addEventListener('click', function () {
    var apiKey = sessionStorage.getItem(KEY_ITEM);
    if (!sessionId || !apiKey || !confirm('End this browser session? Its profile is saved if the session saves changes.')) return;
    setStatus('Ending the session…');
    window.fetch(new URL('../../v2/browser/' + encodeURIComponent(sessionId), location.href).href, {
      method: 'DELETE', headers: { Authorization: 'Bearer ' + apiKey },
    }).then(function (response) {
      setStatus(response.ok ? 'The session has ended.' : 'Could not end the session (' + response.status + ').');
    }, function () { setStatus('Could not end the session.'); });
  });
}

setInterval(function () { if (!document.hidden) send({ type: 'ping' }); }, 20000);
var stored = sessionStorage.getItem(KEY_ITEM);
if (stored) openSocket(stored); else askForKey();
})();
`;

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The live view page for one session token; every asset is inline under the page's nonce. */
export function renderLiveViewPage({ nonce, interactive }: { nonce: string; interactive: boolean }): string {
  const n = escapeAttribute(nonce);
  const controls = interactive
    ? `<form id="address" autocomplete="off"><input id="url" type="text" placeholder="Go to an address (https://…)" aria-label="Address" spellcheck="false"><button type="submit">Go</button></form>
    <span id="status" role="status">Starting…</span>
    <button id="end" type="button">End session</button>`
    : `<span id="status" role="status">Starting…</span>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Tabhive live view${interactive ? '' : ' (watching)'}</title>
<style nonce="${n}">${STYLE}</style>
</head>
<body class="${interactive ? 'interactive' : 'watching'}">
<header>
    ${controls}
</header>
<form id="key-form" hidden>
  <label for="key">This live view works for the session's team only. Enter the team's API key:</label>
  <input id="key" type="password" autocomplete="off" spellcheck="false" placeholder="fc-…">
  <button type="submit">Open the live view</button>
  <p id="key-error" role="alert"></p>
</form>
<main><img id="view" alt="The browser session's tab" draggable="false"${interactive ? ' tabindex="0"' : ''}></main>
<script nonce="${n}">${SCRIPT}</script>
</body>
</html>`;
}

/** What an unknown or ended live view token gets. */
export function renderLiveViewGone(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Live view not found</title></head>
<body><h1>Live view not found</h1><p>This browser session has ended, or the address is wrong.</p></body>
</html>`;
}

/** The page's Content-Security-Policy: its own nonce'd script and style, its own socket, nothing else. */
export function liveViewCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
