import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DocumentProblem } from '../../../server/products/parse/document-problem';
import { openZip } from '../../../server/products/parse/zip/open-zip';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from '../../../server/products/parse/zip/zip-limits';
import { rawZip, zipOf } from '../../fixtures/documents/office-documents';

/** The DocumentProblem a call throws, for asserting on its kind and words. */
function problemOf(work: () => unknown): DocumentProblem {
  try {
    work();
  } catch (err) {
    if (err instanceof DocumentProblem) return err;
    throw err;
  }
  throw new Error('expected a DocumentProblem');
}

/** A zip of one deflated entry whose headers declare `declaredSize`, whatever the stream holds. */
const handMadeZip = (name: string, deflated: Buffer, { declaredSize }: { declaredSize: number }) =>
  rawZip([{ name, data: deflated, method: 8, declaredSize }]);

describe('opening an uploaded zip within limits', () => {
  it('reads the entries of an ordinary archive, once each', () => {
    const zip = openZip(zipOf({ 'a.xml': '<a>one</a>', 'dir/b.rels': '<b/>' }), DEFAULT_ZIP_LIMITS);
    expect(zip.entries.map((entry) => entry.name).sort()).toEqual(['a.xml', 'dir/b.rels']);
    expect(new TextDecoder().decode(zip.read('a.xml'))).toBe('<a>one</a>');
    expect(zip.read('a.xml')).toBe(zip.read('a.xml'));
    expect(zip.read('missing.xml')).toBeUndefined();
  });

  it('stops a real bomb (300 MiB of zeros whose header declares 1 KiB) one byte past what it declared', () => {
    const bomb = deflateRawSync(Buffer.alloc(300 * 1024 * 1024), { level: 9 });
    // About 300 KiB of deflate stream: what an attacker uploads.
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const zip = openZip(handMadeZip('word/document.xml', bomb, { declaredSize: 1024 }), DEFAULT_ZIP_LIMITS);
    const memoryBefore = process.memoryUsage().arrayBuffers;
    const problem = problemOf(() => zip.read('word/document.xml'));
    expect(problem.kind).toBe('archive-limit');
    expect(problem.message).toContain('unpacks to more than the 1024 bytes its header declares');
    // Nothing near 300 MiB was ever held.
    expect(process.memoryUsage().arrayBuffers - memoryBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses an honest bomb by its declared size and ratio before inflating anything', () => {
    const bomb = deflateRawSync(Buffer.alloc(64 * 1024 * 1024));
    const zip = openZip(
      handMadeZip('xl/worksheets/sheet1.xml', bomb, { declaredSize: 64 * 1024 * 1024 }),
      DEFAULT_ZIP_LIMITS,
    );
    const problem = problemOf(() => zip.read('xl/worksheets/sheet1.xml'));
    expect(problem.kind).toBe('archive-limit');
    expect(problem.message).toMatch(/packs 67108864 bytes into \d+ \(more than 200:1, a zip bomb\)/);
  });

  it('holds each entry and the whole archive to their caps', () => {
    const limits: ZipLimits = {
      ...DEFAULT_ZIP_LIMITS,
      maxEntryBytes: 1000,
      maxTotalBytes: 1500,
      maxRatio: 1e9,
    };
    const text = (size: number) => 'x'.repeat(size);
    const zip = openZip(zipOf({ 'big.xml': text(1001), 'a.xml': text(900), 'b.xml': text(900) }), limits);
    expect(problemOf(() => zip.read('big.xml')).message).toContain('one entry may unpack to 1000');
    expect(zip.read('a.xml')?.length).toBe(900);
    expect(problemOf(() => zip.read('b.xml')).message).toContain('unpacks to more than 1500 bytes');
  });

  it('refuses more entries than the limit before reading any', () => {
    const parts = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`p${index}.xml`, '<p/>']));
    const problem = problemOf(() => openZip(zipOf(parts), { ...DEFAULT_ZIP_LIMITS, maxEntries: 10 }));
    expect(problem).toMatchObject({
      kind: 'archive-limit',
      message: 'the zip archive has 11 entries; at most 10 are read',
    });
  });

  it('never opens a nested archive', () => {
    const inner = zipSync({ 'deeper.zip': zipSync({ 'deepest.xml': strToU8('<x/>') }) });
    const zip = openZip(zipOf({ 'word/document.xml': inner }), DEFAULT_ZIP_LIMITS);
    expect(problemOf(() => zip.read('word/document.xml')).message).toContain('is itself a zip archive');
  });

  it('names a truncated archive, a corrupt entry and an entry whose size lies downwards as broken', () => {
    const whole = zipOf({ 'content.xml': '<office:document-content/>'.repeat(50) });
    expect(problemOf(() => openZip(whole.subarray(0, whole.length - 30), DEFAULT_ZIP_LIMITS))).toMatchObject({
      kind: 'broken',
      message: expect.stringContaining('truncated or corrupt'),
    });
    const garbage = handMadeZip('content.xml', Buffer.from('this is not a deflate stream at all'), {
      declaredSize: 10,
    });
    expect(problemOf(() => openZip(garbage, DEFAULT_ZIP_LIMITS).read('content.xml'))).toMatchObject({
      kind: 'broken',
      message: expect.stringContaining('the zip entry content.xml is corrupt'),
    });
    const short = handMadeZip('content.xml', deflateRawSync(Buffer.from('<a/>')), { declaredSize: 100 });
    expect(problemOf(() => openZip(short, DEFAULT_ZIP_LIMITS).read('content.xml')).message).toContain(
      'unpacks to 4 bytes but its header declares 100',
    );
  });

  it('refuses encrypted entries', () => {
    const archive = zipOf({ 'a.xml': '<a/>' });
    const central = archive.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    archive.writeUInt16LE(archive.readUInt16LE(central + 8) | 1, central + 8);
    expect(problemOf(() => openZip(archive, DEFAULT_ZIP_LIMITS).read('a.xml')).message).toBe(
      'the zip entry a.xml is encrypted',
    );
  });
});
