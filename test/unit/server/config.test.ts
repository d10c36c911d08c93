import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/platform/config';

describe('configuration from the environment', () => {
  it('has the operating contract defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3002,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      BROWSERS: 1,
      BROWSER_DISPLAY: 'virtual',
      TABS_PER_BROWSER: 4,
      ALLOW_PRIVATE_NETWORKS: false,
      ALLOWED_PRIVATE_HOSTS: [],
      STEALTH_BROWSERS: 1,
      PROXY_POOL_CHECK_INTERVAL_SECONDS: 30,
      PROXY_POOL_STICKY_SECONDS: 600,
      CHALLENGE_WAIT_MS: 60_000,
      SESSION_BROWSERS: 2,
      HTTP_FAST_PATH: true,
      PARSE_MAX_FILE_BYTES: 52_428_800,
      MONITOR_MIN_INTERVAL_SECONDS: 60,
      SEARCH_ENGINE: 'duckduckgo',
      TEAM_CONCURRENCY: 10,
      RATE_LIMIT_PER_MINUTE: 0,
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
    });
  });

  it('reads the search provider settings, and refuses searxng without its URL', () => {
    expect(
      loadConfig({
        SEARCH_PROVIDER: 'browser',
        SEARCH_ENGINE: 'bing',
        SEARCH_ENGINE_URL: 'http://127.0.0.1:9000',
      }),
    ).toMatchObject({
      SEARCH_PROVIDER: 'browser',
      SEARCH_ENGINE: 'bing',
      SEARCH_ENGINE_URL: 'http://127.0.0.1:9000',
    });
    expect(loadConfig({ SEARXNG_URL: 'http://searxng:8080' }).SEARXNG_URL).toBe('http://searxng:8080');
    expect(() => loadConfig({ SEARCH_PROVIDER: 'searxng' })).toThrow(/SEARXNG_URL/);
    expect(() => loadConfig({ SEARCH_ENGINE: 'altavista' })).toThrow(/SEARCH_ENGINE/);
  });

  it('reads the admin key and team limits', () => {
    expect(
      loadConfig({
        ADMIN_API_KEY: 'admin-key-0123456789',
        TEAM_CONCURRENCY: '3',
        RATE_LIMIT_PER_MINUTE: '60',
      }),
    ).toMatchObject({
      ADMIN_API_KEY: 'admin-key-0123456789',
      TEAM_CONCURRENCY: 3,
      RATE_LIMIT_PER_MINUTE: 60,
    });
    expect(() => loadConfig({ ADMIN_API_KEY: 'short' })).toThrow(/ADMIN_API_KEY/);
  });

  it('reads PUBLIC_URL as a plain base URL without a trailing slash, and refuses anything else', () => {
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'https://scrape.example.com' }).PUBLIC_URL).toBe(
      'https://scrape.example.com',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/tabhive/' }).PUBLIC_URL).toBe(
      'https://example.com/tabhive',
    );
    for (const bad of [
      'scrape.example.com',
      'ftp://example.com',
      'https://user:secret@example.com',
      'https://example.com/?a=1',
      'https://example.com/#top',
    ])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      MONGODB_URL: 'mongodb://127.0.0.1:27017/tabhive',
      DATA_DIR: '/var/lib/tabhive',
      BROWSERS: '0',
      TABS_PER_BROWSER: '2',
      CHROME_PATH: '/opt/chromium/chrome',
      API_KEY: 'fc-0123456789abcdef0123456789abcdef',
      ALLOW_PRIVATE_NETWORKS: 'TRUE',
      HTTP_FAST_PATH: 'false',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_API_KEY: 'sk-local',
      LLM_MODEL: 'llama',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      BROWSERS: 0,
      TABS_PER_BROWSER: 2,
      ALLOW_PRIVATE_NETWORKS: true,
      HTTP_FAST_PATH: false,
    });
    expect(config.MONGODB_URL).toBe('mongodb://127.0.0.1:27017/tabhive');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ API_KEY: '', MONGODB_URL: ' ', ALLOW_PRIVATE_NETWORKS: '' })).toMatchObject({
      ALLOW_PRIVATE_NETWORKS: false,
    });
    expect(loadConfig({ API_KEY: '' }).API_KEY).toBeUndefined();
  });

  it('names every bad variable in one error', () => {
    expect(() => loadConfig({ PORT: 'eighty', BROWSERS: '-1', ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', BROWSERS: '-1', ALLOW_PRIVATE_NETWORKS: 'maybe' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('BROWSERS');
      expect(message).toContain('ALLOW_PRIVATE_NETWORKS');
    }
  });
});
