import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { chooseMedia, noMediaWarning, pageMedia } from '../../../server/scrape/derive/formats/media-formats';
import { extractJsonLd } from '../../../server/scrape/derive/formats/structured-data';

const BASE = 'https://media.test/episodes/7';

function read(html: string) {
  const document = parseHtml(html);
  return pageMedia(document, BASE, extractJsonLd(document));
}

describe('pageMedia', () => {
  it('finds video and audio elements and their sources first, in page order, made absolute', () => {
    const media = read(`<html><head><meta property="og:video" content="https://cdn.test/og.mp4"></head><body>
      <video src="blob:https://media.test/123"></video>
      <video poster="/p.jpg"><source src="/v/clip.webm" type="video/webm"><source src="/v/clip.mp4"></video>
      <audio src="../audio/ep7.mp3"></audio>
    </body></html>`);
    expect(media.video).toEqual([
      { url: 'https://media.test/v/clip.webm', playable: 'file' },
      { url: 'https://media.test/v/clip.mp4', playable: 'file' },
      { url: 'https://cdn.test/og.mp4', playable: 'file' },
    ]);
    expect(media.audio).toEqual([{ url: 'https://media.test/audio/ep7.mp3', playable: 'file' }]);
    expect(chooseMedia(media.video)).toBe('https://media.test/v/clip.webm');
  });

  it('tells player pages and streams from files, and prefers a file', () => {
    const media = read(`<html><head>
      <meta property="og:video" content="https://player.test/embed/42">
      <meta property="og:video:type" content="text/html">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"VideoObject","name":"Hive tour",
        "embedUrl":"https://player.test/embed/42","contentUrl":"https://cdn.test/hls/tour.m3u8"}</script>
    </head><body></body></html>`);
    expect(media.video).toEqual([
      { url: 'https://player.test/embed/42', playable: 'page' },
      { url: 'https://cdn.test/hls/tour.m3u8', playable: 'stream' },
    ]);
    expect(chooseMedia(media.video)).toBe('https://cdn.test/hls/tour.m3u8');
  });

  it('reads schema.org VideoObject and a podcast episode MediaObject nested in other data', () => {
    const media = read(`<html><head><script type="application/ld+json">[
      {"@context":"https://schema.org","@type":"Article","video":{"@type":"VideoObject","contentUrl":"/files/talk"}},
      {"@type":"PodcastEpisode","associatedMedia":{"@type":"MediaObject","contentUrl":"https://cdn.test/ep7.m4a"}}
    ]</script></head><body></body></html>`);
    expect(chooseMedia(media.video)).toBe('https://media.test/files/talk');
    expect(chooseMedia(media.audio)).toBe('https://cdn.test/ep7.m4a');
  });

  it('answers nothing for a page without media, and says so', () => {
    const media = read('<html><body><p>No media here.</p><img src="/x.png"></body></html>');
    expect(media).toEqual({ audio: [], video: [] });
    expect(chooseMedia(media.audio)).toBeUndefined();
    expect(noMediaWarning('audio', media.audio)).toBe('The page names no audio file, so audio was left out.');
    expect(noMediaWarning('video', [{ url: 'https://player.test/embed/1', playable: 'page' }])).toContain(
      'only player pages (https://player.test/embed/1)',
    );
  });
});
