import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(import.meta.dirname, '../../../server');

/**
 * Files allowed to open outbound connections other than through server/platform/egress, and why. Anything
 * else that fetches would be a path around the URL policy (docs/security.md#one-egress).
 */
const EXEMPT: Record<string, string> = {
  'platform/llm/chat-completions.ts': 'LLM_BASE_URL is operator configuration, not caller input',
  'platform/store/mongo/mongo-connection.ts': 'MONGODB_URL is operator configuration (the driver connects)',
  'platform/notify/smtp-mailer.ts':
    'SMTP_URL is operator configuration (nodemailer connects to that server only)',
  'platform/proxy-pool/check-proxy.ts':
    'PROXY_POOL is operator configuration: the health check connects to those proxies (and through them to PROXY_POOL_CHECK_TARGET) only',
  'api/mcp/mcp-routes.ts':
    "`server.connect(transport)` attaches the MCP server to the request's own transport: nothing outbound",
  'api/cli/send-json.ts':
    "the command lines are clients of the Tabhive server their user names (--api-url, or the operator's own server's admin API), not the server fetching for a caller",
};

/** Ways Node code opens an outbound HTTP or TCP connection. */
const OUTBOUND = [
  { what: 'fetch()', pattern: /(?<![.\w])fetch\s*\(/ },
  { what: 'undici', pattern: /from ['"]undici['"]/ },
  { what: 'node:https', pattern: /from ['"](node:)?https['"]/ },
  { what: 'an HTTP client package', pattern: /from ['"](axios|got|node-fetch|superagent|ky)['"]/ },
  { what: 'a mail transport', pattern: /from ['"]nodemailer['"]/ },
  { what: 'a raw socket', pattern: /\b(connect|createConnection)\s*\(/ },
  {
    what: 'node:http (values)',
    pattern: /import \{[^}]*\b(request|get|Agent)\b[^}]*\} from ['"](node:)?http['"]/,
  },
];

async function serverFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(SERVER_DIR, path.join(entry.parentPath, entry.name)));
}

describe('server-side egress', () => {
  it('goes through server/platform/egress alone (the LLM endpoint excepted)', async () => {
    const offenders: string[] = [];
    for (const file of await serverFiles(SERVER_DIR)) {
      if (file.startsWith(`platform${path.sep}egress${path.sep}`) || file in EXEMPT) continue;
      const source = await readFile(path.join(SERVER_DIR, file), 'utf8');
      for (const { what, pattern } of OUTBOUND) {
        if (pattern.test(source)) offenders.push(`${file}: ${what}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keeps the exemptions real', async () => {
    const files = await serverFiles(SERVER_DIR);
    for (const file of Object.keys(EXEMPT)) expect(files).toContain(file);
  });
});
