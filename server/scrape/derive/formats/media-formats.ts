import { resolveUrl } from '../../../../shared/html/resolve-url';
import { hasType, isObject, listOf, textOf, walkObjects } from './schema-org';
import type { JsonObject } from './structured-data';

export type MediaKind = 'audio' | 'video';

/**
 * How a media URL plays: `file` is the media itself (what `<video src>` or schema.org `contentUrl`
 * name), `stream` a playlist a player streams (HLS, DASH), `page` a player page (an embed).
 */
export type Playable = 'file' | 'stream' | 'page';

export interface MediaCandidate {
  url: string;
  playable: Playable;
}

/** The page's media URLs, best first within each source, for the audio and video formats. */
export interface PageMedia {
  audio: MediaCandidate[];
  video: MediaCandidate[];
}

/** Candidates kept per kind: the answer is the first good one. */
const MAX_CANDIDATES = 20;

const FILE_EXTENSION: Record<MediaKind, RegExp> = {
  video: /\.(mp4|m4v|webm|ogv|mov|mkv|avi|3gp)$/i,
  audio: /\.(mp3|m4a|aac|oga|opus|wav|flac|weba)$/i,
};
/** Ogg holds either; it counts for whichever kind is asked. */
const EITHER_EXTENSION = /\.ogg$/i;
const STREAM_EXTENSION = /\.(m3u8|mpd)$/i;
const STREAM_TYPE = /^application\/(x-mpegurl|vnd\.apple\.mpegurl|dash\+xml)\b/i;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** What a URL is, from its declared type, its extension, and whether its source names a media file. */
function playableOf(url: string, kind: MediaKind, type: string | undefined, namesAFile: boolean): Playable {
  const path = pathOf(url);
  if (STREAM_EXTENSION.test(path) || STREAM_TYPE.test(type ?? '')) return 'stream';
  if (type?.toLowerCase().startsWith(`${kind}/`)) return 'file';
  if (FILE_EXTENSION[kind].test(path) || EITHER_EXTENSION.test(path)) return 'file';
  return namesAFile ? 'file' : 'page';
}

/**
 * Reads where the page says its audio and video are, in this order: `<video>` and `<audio>`
 * elements (their `src`, then their `<source>`s), Open Graph (`og:video`, `og:audio` and their
 * `:url` / `:secure_url`), `twitter:player:stream`, then schema.org VideoObject / AudioObject
 * (`contentUrl`, then `embedUrl`) and MediaObjects whose file says which it is. Only http(s) URLs:
 * `blob:` sources exist only inside the page that made them.
 */
export function pageMedia(document: Document, baseUrl: string, structured: readonly JsonObject[]): PageMedia {
  const media: PageMedia = { audio: [], video: [] };
  const add = (
    kind: MediaKind,
    raw: string | null | undefined,
    type: string | undefined,
    namesAFile: boolean,
  ) => {
    const list = media[kind];
    if (raw === null || raw === undefined || raw.trim() === '' || list.length >= MAX_CANDIDATES) return;
    const url = resolveUrl(raw.trim(), baseUrl);
    if (url === undefined || !/^https?:/i.test(url) || list.some((known) => known.url === url)) return;
    list.push({ url, playable: playableOf(url, kind, type, namesAFile) });
  };

  for (const element of Array.from(document.querySelectorAll('video, audio'))) {
    const kind = element.localName as MediaKind;
    add(kind, element.getAttribute('src'), undefined, true);
    for (const source of Array.from(element.querySelectorAll('source'))) {
      add(kind, source.getAttribute('src'), source.getAttribute('type') ?? undefined, true);
    }
  }

  const meta = (name: string) =>
    Array.from(document.querySelectorAll(`meta[property="${name}"], meta[name="${name}"]`)).map((element) =>
      element.getAttribute('content'),
    );
  for (const kind of ['video', 'audio'] as const) {
    const type = meta(`og:${kind}:type`)[0] ?? undefined;
    for (const name of [`og:${kind}:secure_url`, `og:${kind}:url`, `og:${kind}`]) {
      for (const url of meta(name)) add(kind, url, type, false);
    }
  }
  for (const url of meta('twitter:player:stream')) {
    add('video', url, meta('twitter:player:stream:content_type')[0] ?? undefined, true);
  }

  for (const object of walkObjects(structured)) {
    const kind: MediaKind | undefined = hasType(object, ['VideoObject', 'Clip', 'Movie'])
      ? 'video'
      : hasType(object, ['AudioObject', 'AudioBook'])
        ? 'audio'
        : undefined;
    const type = textOf(object.encodingFormat);
    if (kind !== undefined) {
      for (const url of listOf(object.contentUrl)) add(kind, stringOf(url), type, true);
      for (const url of listOf(object.embedUrl)) add(kind, stringOf(url), undefined, false);
    } else if (hasType(object, ['MediaObject'])) {
      // A MediaObject (a podcast episode's associatedMedia) says its kind by its type or file.
      for (const url of listOf(object.contentUrl).map(stringOf)) {
        const path = url === undefined ? '' : pathOf(resolveUrl(url, baseUrl) ?? '');
        for (const candidate of ['audio', 'video'] as const) {
          if (type?.toLowerCase().startsWith(`${candidate}/`) || FILE_EXTENSION[candidate].test(path)) {
            add(candidate, url, type, true);
          }
        }
      }
    }
  }
  return media;
}

const stringOf = (value: unknown) =>
  typeof value === 'string'
    ? value
    : isObject(value) && typeof value.url === 'string'
      ? value.url
      : undefined;

/** The answer to the audio or video format: the first media file, else the first stream. */
export function chooseMedia(candidates: readonly MediaCandidate[]): string | undefined {
  return (
    candidates.find((candidate) => candidate.playable === 'file') ??
    candidates.find((candidate) => candidate.playable === 'stream')
  )?.url;
}

/** Why the format was left out: nothing at all, or only player pages (which are not the media). */
export function noMediaWarning(kind: MediaKind, candidates: readonly MediaCandidate[]): string {
  const players = candidates.filter((candidate) => candidate.playable === 'page').map(({ url }) => url);
  return players.length === 0
    ? `The page names no ${kind} file, so ${kind} was left out.`
    : `The page names no ${kind} file, only player pages (${players.slice(0, 3).join(', ')}), so ${kind} was left out.`;
}
