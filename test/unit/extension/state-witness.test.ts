import { describe, expect, it } from 'vitest';
import { createBrowserStateKeeper } from '../../../extension/browser-state/browser-state-keeper';
import { createStateWitness, siteOf, siteOfHost } from '../../../extension/browser-state/state-witness';

const TAB = 7;
const IDLE_TAB = 8;

/** A witness over a real keeper, as background.ts wires them, with the browser's events played by hand. */
async function setup() {
  let listening = 0;
  const witness = createStateWitness({ listen: () => void (listening += 1) });
  const keeper = witness.watchKeeper(
    createBrowserStateKeeper({
      wipe: async () => witness.forget(),
    }),
  );
  return { witness, keeper, listening: () => listening };
}

/** One plain page task of team A in TAB: navigation, commit, a script from a CDN; its result. */
async function plainTask(
  { witness, keeper }: Awaited<ReturnType<typeof setup>>,
  url: string,
  during: () => void = () => undefined,
) {
  const leave = await keeper.enter('team:A');
  const task = witness.begin(TAB, url);
  witness.requested(TAB, url, 'main_frame');
  witness.committed(TAB, 0, url);
  witness.requested(TAB, 'https://cdn.example.net/app.js', 'script');
  during();
  const clean = task.finish(url);
  leave();
  return clean;
}

describe('the state witness', () => {
  it('names sites never narrower than their registrable domain', () => {
    expect(siteOf('https://a.b.example.co.uk:8443/x')).toBe('co.uk');
    expect(siteOf('https://docs.example.com/x')).toBe('example.com');
    expect(siteOf('http://127.0.0.1:3000/')).toBe('127.0.0.1');
    expect(siteOf('http://[::1]:3000/')).toBe('[::1]');
    expect(siteOf('http://localhost/')).toBe('localhost');
    expect(siteOf('blob:https://x.example.com/3f2a')).toBe('example.com');
    expect(siteOf('about:blank')).toBeUndefined();
    expect(siteOf('data:text/html,hi')).toBeUndefined();
    expect(siteOfHost('.Example.COM')).toBe('example.com');
  });

  it("reports a team's first visit to a site clean, and every later one not", async () => {
    const parts = await setup();
    expect(await plainTask(parts, 'https://news.example.com/a')).toBe(true);
    expect(parts.listening()).toBe(1);
    // The first visit may have left cookies or storage: the second page of the site met them.
    expect(await plainTask(parts, 'https://news.example.com/b')).toBe(false);
    // Another site is still untouched, and the CDN set no cookie.
    expect(await plainTask(parts, 'https://other.example.org/')).toBe(true);
  });

  it('takes anything the witness cannot follow for shaped', async () => {
    const { witness } = await setup();
    // Before the first wipe the witness has seen nothing: it cannot vouch for anything.
    expect(witness.begin(TAB, 'https://a.example/').finish('https://a.example/')).toBe(false);
  });

  it("reports a page whose site got a cookie from the team's earlier work not clean", async () => {
    const parts = await setup();
    expect(await plainTask(parts, 'https://login.example.com/')).toBe(true);
    // A session's Network.setCookie, a profile, an image on another page: a cookie for the site.
    parts.witness.cookieWritten('.shop.example');
    expect(await plainTask(parts, 'https://shop.example/account')).toBe(false);
    // A subresource that meets a cookie from before spoils the page as well.
    parts.witness.cookieWritten('cdn2.example.net');
    const spoiled = await plainTask(parts, 'https://fresh.example/', () =>
      parts.witness.requested(TAB, 'https://api.cdn2.example.net/me', 'xmlhttprequest'),
    );
    expect(spoiled).toBe(false);
  });

  it('follows redirects and frames: every document site of the page must be untouched', async () => {
    const parts = await setup();
    expect(await plainTask(parts, 'https://sso.example/login')).toBe(true);
    const leave = await parts.keeper.enter('team:A');
    const task = parts.witness.begin(TAB, 'https://app.example/');
    parts.witness.requested(TAB, 'https://app.example/', 'main_frame');
    parts.witness.requested(TAB, 'https://sso.example/auth', 'main_frame');
    parts.witness.requested(TAB, 'https://app.example/callback', 'main_frame');
    parts.witness.committed(TAB, 0, 'https://app.example/callback');
    expect(task.finish('https://app.example/callback')).toBe(false);
    leave();
  });

  it("counts what other tabs and the tab's old page do meanwhile as someone else's", async () => {
    const parts = await setup();
    // An idle tab's old page logs in to the site while the task loads it.
    expect(
      await plainTask(parts, 'https://bank.example/', () =>
        parts.witness.requested(IDLE_TAB, 'https://bank.example/login?user=a', 'image'),
      ),
    ).toBe(false);
    // The task's own tab, before its navigation: the previous page is still there.
    const leave = await parts.keeper.enter('team:A');
    const task = parts.witness.begin(TAB, 'https://mail.example/');
    parts.witness.requested(TAB, 'https://mail.example/login?user=a', 'xmlhttprequest');
    parts.witness.committed(TAB, 0, 'https://mail.example/');
    expect(task.finish('https://mail.example/')).toBe(false);
    leave();
    // A worker's request (no tab) is someone else's too.
    expect(
      await plainTask(parts, 'https://web.example/', () =>
        parts.witness.requested(-1, 'https://web.example/sw-login', 'other'),
      ),
    ).toBe(false);
  });

  it('spoils a task when another task of the team runs beside it', async () => {
    const parts = await setup();
    const leaveFirst = await parts.keeper.enter('team:A');
    const task = parts.witness.begin(TAB, 'https://one.example/');
    // A session enters meanwhile: what it does through the debugger (cookies) is not all seen.
    const leaveSession = await parts.keeper.enter('team:A');
    parts.witness.committed(TAB, 0, 'https://one.example/');
    expect(task.finish('https://one.example/')).toBe(false);
    // And a task that begins while another is inside is spoiled from the start.
    const second = parts.witness.begin(IDLE_TAB, 'https://two.example/');
    expect(second.finish('https://two.example/')).toBe(false);
    leaveSession();
    leaveFirst();
  });

  it('starts over at each wipe: the next team sees the site fresh', async () => {
    const parts = await setup();
    expect(await plainTask(parts, 'https://site.example/')).toBe(true);
    expect(await plainTask(parts, 'https://site.example/')).toBe(false);
    const leaveB = await parts.keeper.enter('team:B');
    const task = parts.witness.begin(TAB, 'https://site.example/');
    parts.witness.committed(TAB, 0, 'https://site.example/');
    expect(task.finish('https://site.example/')).toBe(true);
    leaveB();
    expect(parts.listening()).toBe(1);
  });
});
