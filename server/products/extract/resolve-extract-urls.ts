import { UrlInput } from '../../../shared/api/url-input';
import { errors } from '../../platform/errors';
import type { UrlPolicy } from '../../platform/url-policy';

/** A URL the job will read: one page, or with `wildcard` the site (under the path) it names. */
export interface ExtractTarget {
  url: string;
  wildcard: boolean;
}

const WILDCARD = /\/\*$/;

interface Refused {
  index: number;
  raw: string;
  message: string;
  blocked: boolean;
}

/**
 * The request's `urls` checked before the job exists: each must be an http(s) URL the URL policy
 * allows (a name that does not resolve yet passes; its page fails later, as crawl pages do). An
 * entry ending in `/*` stands for the site under that path. Without `ignoreInvalidURLs` a bad URL
 * is the caller's 400, and a refused one a 403 URL_BLOCKED; with it, both are skipped and a
 * warning lists them. Repeated URLs are read once.
 */
export async function resolveExtractUrls(
  urls: readonly string[],
  { urlPolicy, ignoreInvalidURLs }: { urlPolicy: UrlPolicy | undefined; ignoreInvalidURLs: boolean },
): Promise<{ targets: ExtractTarget[]; warnings: string[] }> {
  const refused: Refused[] = [];
  const checked = await Promise.all(
    urls.map(async (raw, index): Promise<ExtractTarget | undefined> => {
      const wildcard = WILDCARD.test(raw.trim());
      const parsed = UrlInput.safeParse(wildcard ? raw.trim().slice(0, -1) : raw);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Invalid url';
        refused.push({ index, raw, message, blocked: false });
        return undefined;
      }
      const url = parsed.data.url;
      const verdict =
        urlPolicy === undefined ? { allowed: true as const } : await urlPolicy.check(new URL(url));
      if (!verdict.allowed && verdict.reason !== 'dns') {
        refused.push({ index, raw, message: verdict.message, blocked: true });
        return undefined;
      }
      return { url, wildcard };
    }),
  );
  refused.sort((a, b) => a.index - b.index);

  if (!ignoreInvalidURLs) {
    const invalid = refused.filter((entry) => !entry.blocked);
    if (invalid.length > 0) {
      throw errors.badRequest(
        invalid.map((entry) => ({ code: 'custom', message: entry.message, path: ['urls', entry.index] })),
      );
    }
    const blocked = refused[0];
    if (blocked !== undefined) throw errors.urlBlocked(`URL refused: ${blocked.raw}: ${blocked.message}`);
  }

  const seen = new Set<string>();
  const targets: ExtractTarget[] = [];
  for (const target of checked) {
    if (target === undefined) continue;
    const key = `${target.wildcard ? '*' : ''}${target.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push(target);
  }
  const warnings =
    refused.length === 0
      ? []
      : [
          `These URLs were skipped (ignoreInvalidURLs): ${refused
            .map((entry) => `${entry.raw.slice(0, 200)} (${entry.message})`)
            .join('; ')}.`,
        ];
  return { targets, warnings };
}
