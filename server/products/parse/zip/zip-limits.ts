/**
 * What the entries of an uploaded document's zip (DOCX, XLSX, PPTX, ODS) may unpack to. Only the
 * parts a converter reads are ever inflated (images and embedded objects never are), and each is
 * inflated with its declared size as a hard output limit, so a header that lies about a bomb is
 * caught at the first byte beyond what it declared, whatever the deflate stream holds.
 */
export interface ZipLimits {
  /** Entries in the central directory; a real document has dozens to a few thousand. */
  maxEntries: number;
  /** Bytes one entry may unpack to. */
  maxEntryBytes: number;
  /** Bytes all the entries read from one archive may unpack to together. */
  maxTotalBytes: number;
  /** Unpacked bytes per packed byte of one entry (XML packs 5–30×; zeros pack about 1000×)… */
  maxRatio: number;
  /** …once the entry unpacks to more than this: small parts of whitespace legitimately pack further. */
  ratioFloorBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 128 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};
