import { describe, expect, it } from 'vitest';
import { pageFileName, uniqueName } from '../../../server/api/cli/tabhive/page-file-name';

describe('pageFileName', () => {
  const host = 'site.localhost:8080';

  it('names a page after its path, without the page extension', () => {
    expect(pageFileName('http://site.localhost:8080/docs/page-1.html', host)).toBe('docs_page-1');
    expect(pageFileName('http://site.localhost:8080/about', host)).toBe('about');
  });

  it('calls root and folder pages index', () => {
    expect(pageFileName('http://site.localhost:8080/', host)).toBe('index');
    expect(pageFileName('http://site.localhost:8080/docs/', host)).toBe('docs_index');
  });

  it('puts the host in front of pages on another host', () => {
    expect(pageFileName('http://blog.site.localhost:8080/post.html', host)).toBe(
      'blog.site.localhost-8080_post',
    );
  });

  it('tells query strings apart with a short hash', () => {
    const a = pageFileName('http://site.localhost:8080/list?page=2', host);
    const b = pageFileName('http://site.localhost:8080/list?page=3', host);
    expect(a).toMatch(/^list-[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  it('keeps only safe characters and no leading dot', () => {
    expect(pageFileName('http://site.localhost:8080/.hidden/a%20b%3Fc<>.html', host)).toBe('hidden_a-b-c-');
    expect(pageFileName('http://site.localhost:8080/caf%C3%A9', host)).toBe('café');
    expect(pageFileName('not a url', host)).toMatch(/^page-[0-9a-f]{8}$/);
  });

  it('stays short', () => {
    expect(pageFileName(`http://site.localhost:8080/${'a'.repeat(400)}`, host).length).toBeLessThanOrEqual(
      120,
    );
  });
});

describe('uniqueName', () => {
  it('adds -2, -3, … to a name taken already, ignoring case', () => {
    expect(uniqueName('docs', new Set())).toBe('docs');
    expect(uniqueName('Docs', new Set(['docs']))).toBe('Docs-2');
    expect(uniqueName('docs', new Set(['docs', 'docs-2']))).toBe('docs-3');
  });
});
