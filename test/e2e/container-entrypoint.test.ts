import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { Config, loadConfig } from '../../server/platform/config';
import { CHROME_CANDIDATES } from '../../server/browsers/launcher/find-chrome';
import { compatPython, pythonRequired, requirePython } from '../helpers/compat-python';
import { readDockerfile, stageConfig, type StageConfig } from '../helpers/dockerfile';
import { RENDERED_MESSAGE, startFixtureSite } from '../helpers/fixture-site';
import { freePort } from '../helpers/free-port';
import { waitUntil } from '../helpers/start-test-tabhive';

/**
 * The deployable artefacts, tested the way a container runs them (these machines have no container
 * runtime): the Dockerfile's final stage gives the command line (ENTRYPOINT + CMD), the
 * environment and the files; the test lays those files out as the image does, runs the same
 * command with the same environment, and changes only what cannot be the same here (the port, the
 * data directory, node_modules: the image's is this checkout's pruned to production dependencies).
 * hadolint lints the Dockerfile; compose.yaml is checked against the names the code reads.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN_API_KEY = 'admin-key-for-the-image-test-000';
const { text: dockerfileText, stages, image } = readDockerfile(path.join(ROOT, 'Dockerfile'));
const buildStage = stages.find((stage) => stage.name === 'build');
const entrypointScript = readFileSync(path.join(ROOT, 'docker/entrypoint.sh'), 'utf8');
const composeText = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
const nginxConf = readFileSync(path.join(ROOT, 'docker/nginx.conf'), 'utf8');
const BROWSER_NODE_SOURCE = path.join(ROOT, 'server/browsers/browser-node/main.ts');

/** The roles docker/entrypoint.sh knows: the labels of its `case`. */
const entrypointRoles = [...entrypointScript.matchAll(/^\s+([a-z][a-z-]*)\)$/gm)].map((match) => match[1]);

const onPath = (command: string, pathVariable: string) =>
  pathVariable.split(':').some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** The registry an image reference names: its first path component when that has a dot or a port, or is localhost. */
const registryOf = (reference: string) => {
  const [first, ...rest] = reference.split('/');
  return rest.length > 0 && /[.:]|^localhost$/.test(first as string) ? first : undefined;
};

const lintable = compatPython() !== undefined || pythonRequired;
if (!lintable) {
  console.warn(
    '\n*** container-entrypoint.test.ts: hadolint NOT RUN: no Python venv (TABHIVE_PYTHON or ~/.cache/tabhive/venv).\n' +
      '*** Create one from test/compat/python/requirements.txt; CI sets REQUIRE_PYTHON_SDK=1, which makes this a failure.\n',
  );
}

describe('the Dockerfile', () => {
  it.skipIf(!lintable)('passes hadolint (the venv of test/compat/python/requirements.txt)', () => {
    const hadolint = path.join(path.dirname(requirePython()), 'hadolint');
    const result = spawnSync(hadolint, ['--config', '.hadolint.yaml', '--no-color', 'Dockerfile'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(result.error, `${hadolint}: pip install -r test/compat/python/requirements.txt`).toBeUndefined();
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  it('builds both bundles and keeps production dependencies only', () => {
    expect(buildStage).toBeDefined();
    const runs = stageConfig(buildStage as NonNullable<typeof buildStage>).runs.join(' && ');
    for (const step of ['npm ci', 'npm run build', 'npm run build:server', 'npm prune --omit=dev']) {
      expect(runs).toContain(step);
    }
    // The patches apply to the production dependencies the prune keeps.
    expect(runs).toContain('patch-package');
  });

  it('runs Debian Chromium on Node 22 as a non-root user, configured as the code reads it', () => {
    expect(image.base).toMatch(/^node:22-bookworm-slim$/);
    expect(image.runs.join(' ')).toMatch(/apt-get install -y --no-install-recommends .*\bchromium\b/);
    expect(Number(image.user?.split(':')[0])).toBe(10001);
    // The first place find-chrome.ts looks, which is where Debian's package puts the real binary.
    expect(image.env.CHROME_PATH).toBe(CHROME_CANDIDATES[0]);
    expect(image.env.HOST).toBe('0.0.0.0');
    const config = loadConfig(image.env);
    expect(image.exposedPorts).toEqual([String(config.PORT)]);
    expect(image.volumes).toEqual([config.DATA_DIR]);
    expect(Object.keys(image.env).filter((name) => name !== 'NODE_ENV' && !(name in Config.shape))).toEqual(
      [],
    );
    expect(image.entrypoint.at(-1)).toBe(`${image.workdir}/docker/entrypoint.sh`);
    expect(entrypointRoles).toEqual(['api', 'browser-node', 'keys']);
    expect(image.cmd).toEqual(['api']);
  });

  it('names no registry host: images by their short names, no addresses but loopback', () => {
    for (const base of stages.map((stage) => stage.base)) expect(registryOf(base), base).toBeUndefined();
    for (const text of [dockerfileText, entrypointScript]) {
      const hosts = [...text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/([^/:'"\s]+)/gi)].map((match) => match[1]);
      expect(hosts.filter((host) => host !== '127.0.0.1')).toEqual([]);
      expect(text).not.toMatch(
        /docker\.io|ghcr\.io|quay\.io|gcr\.io|ecr\.|npmjs|yarnpkg|debian\.org|nodejs\.org/i,
      );
    }
  });
});

/** `${NAME:-default}`, `${NAME:?message}` and `${NAME}` as compose fills them, with `given` set. */
const interpolate = (value: string, given: Record<string, string>) =>
  value.replace(/\$\{(\w+)(?::?[-?]([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
    if (given[name] !== undefined) return given[name];
    if (whole.includes(':?')) throw new Error(`compose needs ${name}: ${fallback ?? ''}`);
    return whole.includes(':-') ? (fallback ?? '') : '';
  });

const seconds = (duration: string) =>
  [...duration.matchAll(/(\d+)(h|m|s)/g)].reduce(
    (sum, match) => sum + Number(match[1]) * { h: 3600, m: 60, s: 1 }[match[2] as 'h' | 'm' | 's'],
    0,
  );

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  shm_size?: string;
  stop_grace_period?: string;
  healthcheck?: { disable?: boolean; test?: string[] };
}

describe('compose.yaml', () => {
  const compose = parseYaml(composeText, { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const secrets = {
    TABHIVE_API_KEY: 'fc-compose-test-key',
    TABHIVE_ADMIN_API_KEY: ADMIN_API_KEY,
    TABHIVE_NODE_TOKEN: 'tbn_compose-test',
  };
  const envOf = (name: string) =>
    Object.fromEntries(
      Object.entries(services[name]?.environment ?? {}).map(([key, value]) => [
        key,
        interpolate(String(value), secrets),
      ]),
    );
  const apis = ['api-1', 'api-2'];
  const nodes = ['node-1', 'node-2'];

  it('has a MongoDB replica set, two API instances, a load balancer and two browser nodes', () => {
    expect(Object.keys(services).sort()).toEqual(['api-1', 'api-2', 'lb', 'mongo', 'node-1', 'node-2']);
    expect(services.mongo?.image).toBe('mongo:7');
    expect(services.mongo?.command).toEqual(['--replSet', 'rs0', '--bind_ip_all']);
    expect(services.mongo?.healthcheck?.test?.join(' ')).toContain(
      "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] })",
    );
    for (const service of Object.values(services)) expect(registryOf(service.image ?? '')).toBeUndefined();
    for (const name of [...apis, ...nodes]) {
      expect(services[name]?.image, name).toBe('tabhive:local');
      expect(services[name]?.build, name).toBe('.');
    }
  });

  it('configures the API instances with the variables server/platform/config/config.ts reads', () => {
    for (const name of apis) {
      expect(services[name]?.command).toEqual(['api']);
      const env = envOf(name);
      expect(Object.keys(env).filter((key) => !(key in Config.shape))).toEqual([]);
      const config = loadConfig({ ...image.env, ...env });
      expect(config.MONGODB_URL).toBe('mongodb://mongo:27017/tabhive?replicaSet=rs0');
      expect(config.BROWSERS).toBe(0);
      expect(config.API_KEY).toBe(secrets.TABHIVE_API_KEY);
    }
    // Without the shared key, compose refuses to start rather than each instance making its own.
    expect(() => interpolate(String(services['api-1']?.environment?.API_KEY), {})).toThrow(/TABHIVE_API_KEY/);
    // The load balancer spreads over exactly these instances, on the image's port.
    const upstreams = [...nginxConf.matchAll(/^\s*server\s+([\w-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(apis.map((name) => `${name}:${image.exposedPorts[0]}`));
    expect(nginxConf).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
  });

  it('runs the browser nodes with the role, variables and room Chromium needs', () => {
    // The names the browser node reads from its environment (server/browsers/browser-node/main.ts).
    const nodeSource = readFileSync(BROWSER_NODE_SOURCE, 'utf8');
    const nodeEnvNames = new Set([...nodeSource.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    for (const name of nodes) {
      const service = services[name] as ComposeService;
      expect(service.command).toEqual(['browser-node']);
      expect(entrypointRoles).toContain('browser-node');
      const env = envOf(name);
      expect(Object.keys(env).sort()).toEqual(['BROWSERS', 'TABHIVE_NODE_TOKEN', 'TABHIVE_SERVER_URL']);
      for (const key of Object.keys(env)) expect(nodeEnvNames, key).toContain(key);
      const server = new URL(env.TABHIVE_SERVER_URL as string);
      expect(Object.keys(services)).toContain(server.hostname);
      expect(nginxConf).toContain(`listen ${server.port};`);
      expect(env.TABHIVE_NODE_TOKEN).toBe(secrets.TABHIVE_NODE_TOKEN);
      expect(service.shm_size).toBe('1gb');
      // Longer than the node's drain (30 s by default) and its 15 s of grace after it.
      expect(seconds(service.stop_grace_period ?? '')).toBeGreaterThanOrEqual(60);
      expect(service.healthcheck?.disable).toBe(true);
    }
  });
});

/** The image's files in `root`, from the final stage's COPY lines; built files from `built`. */
async function layOutImage(config: StageConfig, root: string, built: Record<string, string>) {
  const buildWorkdir = buildStage === undefined ? '/app' : stageConfig(buildStage).workdir;
  for (const copy of config.copies) {
    expect(copy.from, 'every file of the image comes from the build stage').toBe('build');
    for (const source of copy.sources) {
      const relative = path.posix.relative(buildWorkdir, source);
      const destination = path.join(
        root,
        copy.destination.startsWith('/')
          ? path.posix.relative(config.workdir, copy.destination)
          : copy.destination,
      );
      await mkdir(path.dirname(destination), { recursive: true });
      // The checkout's node_modules has the dev dependencies too; the image's is pruned of them.
      if (relative === 'node_modules') await symlink(path.join(ROOT, 'node_modules'), destination);
      else await cp(built[relative] ?? path.join(ROOT, relative), destination, { recursive: true });
    }
  }
}

/** What the container runs: ENTRYPOINT + `args` (CMD's place), with paths inside the image mapped to `root`. */
function containerCommand(config: StageConfig, root: string, args: string[], pathVariable: string) {
  let command = [...config.entrypoint, ...args];
  // tini is the image's PID 1; where it is not installed, the command it would run.
  if (command[0] === 'tini' && !onPath('tini', pathVariable))
    command = command.slice(command.indexOf('--') + 1);
  return command.map((word) =>
    word.startsWith(`${config.workdir}/`) ? path.join(root, word.slice(config.workdir.length + 1)) : word,
  );
}

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

interface Health {
  ok: boolean;
  browsers: number;
  store: string;
}

const launchedPids = (output: string) =>
  [...output.matchAll(/browser launched \{"slot":\d+,"pid":(\d+)\}/g)].map((match) => Number(match[1]));

describe('the image entrypoint, run as the container runs it', () => {
  let site: Awaited<ReturnType<typeof startFixtureSite>>;
  let root: string;
  let scratch: string;
  let builtServer: string;
  let env: Record<string, string>;
  let api: Running & { url: string };
  const started: Running[] = [];

  const adminPost = async (apiUrl: string, pathname: string, body: unknown) => {
    const response = await fetch(`${apiUrl}/admin/v1${pathname}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, pathname).toBe(200);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  const health = (apiUrl: string) =>
    fetch(`${apiUrl}/health`)
      .then((response) => response.json() as Promise<Health>)
      .catch(() => undefined);
  /** A key of a new team, issued through the admin API as an operator would. */
  const newTeamKey = async (apiUrl: string, team: string) => {
    await adminPost(apiUrl, '/teams', { id: team });
    return String((await adminPost(apiUrl, `/teams/${team}/keys`, { label: 'image test' })).apiKey);
  };
  const scrape = async (apiUrl: string, apiKey: string) => {
    const response = await fetch(`${apiUrl}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.url('/js-rendered.html'), formats: ['markdown'] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { markdown: string; metadata: { statusCode: number } } }).data;
  };

  /** The container's command with `args` in CMD's place, and the image's environment plus `extraEnv`. */
  const run = (args: string[], extraEnv: Record<string, string> = {}): Running => {
    const childEnv = { ...env, ...extraEnv };
    const [command, ...rest] = containerCommand(image, root, args, childEnv.PATH as string);
    const child = spawn(command as string, rest, {
      cwd: root,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const running = { child, exited, output: () => output };
    started.push(running);
    return running;
  };

  /** An API container (the image's CMD) on a port and data volume of its own, once /health shows `browsers`. */
  const startApi = async (browsers: number, extraEnv: Record<string, string> = {}) => {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(scratch, 'data-'));
    const url = `http://127.0.0.1:${port}`;
    const running = run(image.cmd, { PORT: String(port), DATA_DIR: dataDir, ...extraEnv });
    await waitUntil(
      async () => (await health(url))?.browsers === browsers,
      30_000,
      `${browsers} browser(s) in /health of the API (output: ${running.output()})`,
    );
    return { ...running, url };
  };

  /** SIGTERM as `docker stop` sends it (to PID 1: tini, which passes it on, or node itself). */
  const stop = async (running: Running) => {
    process.kill(running.child.pid as number, 'SIGTERM');
    return running.exited;
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    scratch = await mkdtemp(path.join(os.tmpdir(), 'tabhive-image-'));
    root = path.join(scratch, 'app');
    // Built as `npm run build:server` builds it, beside the real build (the bundles address the
    // sources relative to themselves, so the copy into the image's layout finds the copied sources).
    builtServer = await mkdtemp(path.join(ROOT, '.output/server-image-test-'));
    const build = spawnSync(process.execPath, ['scripts/build-server.mjs', builtServer], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    await layOutImage(image, root, { '.output/server': builtServer });
    env = {
      // The image's PATH holds node; here it is this test's node.
      PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: scratch,
      ...image.env,
      // What an operator adds to `docker run`: the admin key, and the loopback fixture site allowed.
      ADMIN_API_KEY,
      ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    };
    // `docker run tabhive`: one browser of its own (BROWSERS' default).
    api = await startApi(1);
  }, 90_000);

  afterAll(async () => {
    for (const running of started) {
      if (running.child.exitCode === null) process.kill(-(running.child.pid as number), 'SIGKILL');
    }
    await site?.close();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
    if (builtServer !== undefined) await rm(builtServer, { recursive: true, force: true });
  });

  it('api (the default command): listens on the image HOST, answers /health and the health check', async () => {
    expect(api.output()).toContain(`Tabhive listening on http://0.0.0.0:${new URL(api.url).port}`);
    expect(await health(api.url)).toEqual({ ok: true, browsers: 1, store: 'embedded' });
    const [command, ...args] = image.healthcheck ?? [];
    const check = spawnSync(command as string, args, {
      env: { ...env, PORT: new URL(api.url).port },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('api: scrapes a page through its browser with a key issued by the admin API', async () => {
    const data = await scrape(api.url, await newTeamKey(api.url, 'docker'));
    expect(data.markdown).toContain(RENDERED_MESSAGE);
    expect(data.metadata.statusCode).toBe(200);
  });

  it('browser-node: joins an API without browsers (as in compose.yaml) with a node token, serves its scrape, drains on SIGTERM', async () => {
    const lone = await startApi(0, { BROWSERS: '0' });
    const { token } = await adminPost(lone.url, '/node-tokens', { label: 'image test' });
    const node = run(['browser-node'], {
      TABHIVE_SERVER_URL: lone.url,
      TABHIVE_NODE_TOKEN: String(token),
      BROWSERS: '1',
    });
    await waitUntil(
      async () => (await health(lone.url))?.browsers === 1,
      30_000,
      `the node's browser in /health (output: ${node.output()})`,
    );
    // The API has no browser of its own: the node's served this.
    const data = await scrape(lone.url, await newTeamKey(lone.url, 'node'));
    expect(data.markdown).toContain(RENDERED_MESSAGE);

    const nodeBrowsers = launchedPids(node.output());
    expect(nodeBrowsers).toHaveLength(1);
    expect(await stop(node)).toBe(0);
    expect(node.output()).toMatch(/drained/);
    for (const pid of nodeBrowsers) expect(() => process.kill(pid, 0)).toThrow();
    await waitUntil(
      async () => (await health(lone.url))?.browsers === 0,
      20_000,
      "the node's browser to leave",
    );
    expect(await stop(lone)).toBe(0);
  });

  it('keys: runs the key CLI on the store in DATA_DIR, with the tsx the image installs', async () => {
    const keys = run(['keys', 'node-token', 'create', '--label', 'image test'], {
      DATA_DIR: await mkdtemp(path.join(scratch, 'data-')),
    });
    expect(await keys.exited, keys.output()).toBe(0);
    // The token is shown once, whatever the words around it.
    expect(keys.output()).toMatch(/\btbn_[\w-]{20,}/);
    const unknown = run(['serve']);
    expect(await unknown.exited).toBe(64);
    expect(unknown.output()).toContain('tabhive: unknown role "serve"; expected api, browser-node or keys');
  });

  it('api: stops on SIGTERM with exit code 0, its browser with it', async () => {
    const browserPids = launchedPids(api.output());
    expect(browserPids).toHaveLength(1);
    expect(await stop(api)).toBe(0);
    for (const pid of browserPids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
