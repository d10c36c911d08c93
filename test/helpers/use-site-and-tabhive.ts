import { afterAll, beforeAll } from 'vitest';
import { startFixtureSite } from './fixture-site';
import { startTestTabhive } from './start-test-tabhive';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

/**
 * The usual end-to-end setting for the calling test file: the fixture site and a whole Tabhive with
 * one real browser, started before its tests and stopped after them. Read the getters in tests.
 */
export function useSiteAndTabhive(options: Parameters<typeof startTestTabhive>[0] = {}): {
  readonly site: Site;
  readonly tabhive: Tabhive;
} {
  let site: Site | undefined;
  let tabhive: Tabhive | undefined;
  beforeAll(async () => {
    site = await startFixtureSite();
    tabhive = await startTestTabhive(options);
  });
  afterAll(async () => {
    await tabhive?.stop();
    await site?.close();
  });
  return {
    get site() {
      if (site === undefined) throw new Error('the fixture site starts in beforeAll');
      return site;
    },
    get tabhive() {
      if (tabhive === undefined) throw new Error('Tabhive starts in beforeAll');
      return tabhive;
    },
  };
}
