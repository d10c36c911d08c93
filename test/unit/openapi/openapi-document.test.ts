import type Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import type { JobService } from '../../../server/products/jobs/create-job-service';
import type { Mapper } from '../../../server/products/map/create-mapper';
import { silentLog } from '../../../server/platform/log/log';
import { apiOperations } from '../../../server/api/openapi/api-operations';
import { requestSchemas } from '../../../server/api/openapi/api-schemas';
import { buildOpenApiDocument } from '../../../server/api/openapi/build-openapi-document';
import type { ExtractService } from '../../../server/products/extract/create-extract-service';
import type { LlmsTxtService } from '../../../server/products/llmstxt/create-llms-txt-service';
import type { MonitorService } from '../../../server/products/monitors/create-monitor-service';
import type { BrowserSessionService } from '../../../server/products/browser-sessions/create-browser-session-service';
import type { LiveSessionDirectory } from '../../../server/products/browser-sessions/live-session';
import type { ReplayService } from '../../../server/products/browser-sessions/replay-service';
import type { AgentService } from '../../../server/products/agent/create-agent-service';
import type { UsageReports } from '../../../server/platform/teams/usage-reports';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { SearchService } from '../../../server/products/search/create-search-service';
import type { ResultStore } from '../../../server/platform/store/stores/result-store';
import { serveApp } from '../../helpers/serve-app';

const document = buildOpenApiDocument(apiOperations, { version: '0.0.0-test' });

/** A 2020-12 validator holding the document's components, so `#/components/schemas/…` resolves. */
function componentValidator({ strict }: { strict: boolean }) {
  const ajv = new Ajv2020({ strict, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary(['components']);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  return (name: string) => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (validate === undefined) throw new Error(`no component ${name}`);
    return validate;
  };
}
const DOCUMENT_ID = 'https://tabhive.invalid/openapi.json';

/** Method and path of every route the app's routers declare, in OpenAPI's `{param}` form. */
function servedRoutes(app: Koa): string[] {
  const routes = new Set<string>();
  for (const middleware of app.middleware) {
    // @koa/router's routes() middleware carries its router, which lists the declared routes.
    const router = (middleware as { router?: Router }).router;
    for (const layer of router?.stack ?? []) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue; // added by the router for every GET
        routes.add(`${method.toLowerCase()} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}

/** The app with every router; its routes are listed or answer from the document, never run. */
function appWithoutDomain(): Koa {
  const unused = {} as never;
  return createApp({
    log: silentLog,
    keyring: createStaticKeyring([{ apiKey: 'fc-0123456789abcdef0123456789abcdef', team: DEFAULT_TEAM }]),
    scraper: unused as Scraper,
    results: unused as ResultStore,
    connectedBrowsers: () => 0,
    storeKind: 'embedded',
    jobs: unused as JobService,
    mapper: unused as Mapper,
    search: unused as SearchService,
    teams: {
      ...(unused as NonNullable<Parameters<typeof createApp>[0]['teams']>),
      reports: unused as UsageReports,
    },
    extract: unused as ExtractService,
    llmsTxt: unused as LlmsTxtService,
    monitors: unused as MonitorService,
    browserSessions: unused as BrowserSessionService,
    liveSessions: unused as LiveSessionDirectory,
    sessionReplays: unused as ReplayService,
    agent: unused as AgentService,
  });
}

describe('the OpenAPI document', () => {
  it('is served at GET /openapi.json without a key, naming the server as the client reached it', async () => {
    const api = await serveApp(appWithoutDomain());
    try {
      const response = await fetch(`${api.url}/openapi.json`);
      expect(response.status).toBe(200);
      const served = (await response.json()) as typeof document & { servers: unknown };
      expect(served.servers).toEqual([{ url: api.url }]);
      expect(served.openapi).toBe('3.1.0');
      expect(Object.keys(served.paths)).toEqual(Object.keys(document.paths));
    } finally {
      await api.close();
    }
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes exactly the routes the app serves', () => {
    const app = appWithoutDomain();
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    // A failure here means a route was added or removed without server/api/openapi/api-operations.ts.
    expect(documented.sort()).toEqual(servedRoutes(app));
  });

  it('has JSON Schemas that a 2020-12 validator compiles, in strict mode', () => {
    const component = componentValidator({ strict: true });
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => component(name), name).not.toThrow();
    }
  });

  it('accepts and refuses request bodies as the zod schemas the routes parse with do', () => {
    const component = componentValidator({ strict: false });
    const bodies: Array<[keyof typeof requestSchemas, unknown]> = [
      [
        'ScrapeRequestV2',
        { url: 'https://example.com', formats: ['markdown', { type: 'json', prompt: 'x' }] },
      ],
      ['ScrapeRequestV2', { url: 'https://example.com', origin: 'js-sdk@4.42.0', onlyMainContent: false }],
      ['ScrapeRequestV2', { url: 'https://example.com', notAnOption: true }],
      ['ScrapeRequestV2', { formats: ['markdown'] }],
      ['ScrapeRequestV2', { url: 'https://example.com', formats: ['not-a-format'] }],
      ['ScrapeRequestV1', { url: 'https://example.com', formats: ['markdown', 'screenshot@fullPage'] }],
      ['ScrapeRequestV1', { url: 'https://example.com', formats: [{ type: 'markdown' }] }],
      ['CrawlRequestV2', { url: 'https://example.com', limit: 5, sitemap: 'skip' }],
      ['CrawlRequestV2', { url: 'https://example.com', limit: 0 }],
      ['CrawlRequestV1', { url: 'https://example.com', maxDepth: 2, ignoreSitemap: true }],
      ['BatchScrapeRequestV2', { urls: ['https://example.com'], maxConcurrency: 2 }],
      ['BatchScrapeRequestV2', { urls: 'https://example.com' }],
      ['BatchScrapeRequestV1', { urls: ['https://example.com'], ignoreInvalidURLs: true }],
      ['SearchRequestV2', { query: 'bees', sources: ['web', 'news'], categories: [{ type: 'github' }] }],
      ['SearchRequestV2', { query: 'bees', scrapeOptions: { formats: ['markdown'] }, limit: 100 }],
      ['SearchRequestV2', { query: 'bees', limit: 101 }],
      ['SearchRequestV2', { query: 'bees', sources: ['video'] }],
      ['SearchRequestV1', { query: 'bees', lang: 'en', scrapeOptions: { formats: ['markdown'] } }],
      ['SearchRequestV1', { limit: 3 }],
    ];
    for (const [name, body] of bodies) {
      const validate = component(name);
      expect(validate(body), `${name} ${JSON.stringify(body)}`).toBe(
        requestSchemas[name].safeParse(body).success,
      );
    }
  });

  it('requires the bearer key exactly where the routes authenticate', () => {
    expect(document.paths['/v2/scrape']?.post).toMatchObject({ security: [{ bearerAuth: [] }] });
    expect(document.paths['/health']?.get).toMatchObject({ security: [] });
  });
});
