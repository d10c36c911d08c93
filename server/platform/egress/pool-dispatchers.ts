import { ProxyAgent } from 'undici';
import type { ProxyEntry } from '../proxy-pool';

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * One undici ProxyAgent per pool proxy, made when first used: HTTP(S) proxies tunnel with
 * CONNECT (or forward plain http), SOCKS5 ones connect through undici's SOCKS client. The
 * credentials stay in the agent's URL, never in a message.
 */
export function createPoolDispatchers() {
  const agents = new Map<string, ProxyAgent>();
  return {
    of(entry: ProxyEntry): ProxyAgent {
      let agent = agents.get(entry.id);
      if (agent === undefined) {
        agent = new ProxyAgent({ uri: entry.url, connectTimeout: CONNECT_TIMEOUT_MS });
        agents.set(entry.id, agent);
      }
      return agent;
    },
    async close() {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
      agents.clear();
    },
  };
}
