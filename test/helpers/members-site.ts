import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The cookie a member's browser holds after logging in to the members site. */
export const MEMBER_COOKIE = { name: 'hive_session', value: 'queen-bee-7f3a' };
export const MEMBERS_ONLY_TEXT = 'Members only: the spring swarm list for Hive Keepers Guild members.';
export const LOGIN_TEXT = 'Please log in to see the members area.';

/**
 * A site with a members-only page: `/members` shows members' content to a request that carries
 * the login cookie, and a login prompt to anyone else. Records each request's Cookie header.
 */
export async function startMembersSite() {
  const hits: Array<{ host: string; path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://members');
    hits.push({ host: request.headers.host ?? '', path: url.pathname, headers: request.headers });
    const loggedIn = (request.headers.cookie ?? '')
      .split(';')
      .some((pair) => pair.trim() === `${MEMBER_COOKIE.name}=${MEMBER_COOKIE.value}`);
    if (url.pathname === '/members') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Members</title><main><h1>Members area</h1><p>${
          loggedIn ? MEMBERS_ONLY_TEXT : LOGIN_TEXT
        }</p><img src="/guild-badge.png" alt="Guild badge"></main>`,
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Not found</title><p>Not found</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    /** The same server under a name the donor allows (`localhost`) or an address they do not. */
    url: (host: 'localhost' | '127.0.0.1', pathname: string) => `http://${host}:${port}${pathname}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
