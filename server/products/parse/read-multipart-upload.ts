import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { TabhiveError } from '../../platform/errors';
import { parseErrors } from './parse-errors';

/** What a parse request carries: the options text (absent means defaults) and the one file. */
export interface Upload {
  options: string | undefined;
  file: { filename: string; contentType: string | undefined; bytes: Buffer };
}

export interface UploadLimits {
  /** Bytes of the file (PARSE_MAX_FILE_BYTES). */
  maxFileBytes: number;
  /** Bytes of the options JSON: room for a json format's schema, not for a document. */
  maxOptionsBytes: number;
}

export const MAX_OPTIONS_BYTES = 1024 * 1024;
/** Boundaries, part headers and a margin, on top of the file and the options. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_FILENAME_CHARS = 1024;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Reads a `multipart/form-data` body with exactly one `file` part (with a file name) and at most
 * one `options` part. The raw body is counted as it arrives and refused with a 413 beyond the
 * file limit plus the options limit and the multipart overhead (at once when Content-Length says
 * so); the file part is refused beyond the file limit while it streams, so no more than the limit
 * is ever held. Everything else that is not that shape is a 400 saying what is wrong.
 */
export async function readMultipartUpload(
  request: IncomingMessage,
  { maxFileBytes, maxOptionsBytes }: UploadLimits,
): Promise<Upload> {
  const type = request.headers['content-type'] ?? '';
  const mediaType = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== 'multipart/form-data') throw parseErrors.notMultipart(mediaType);
  const maxBodyBytes = maxFileBytes + maxOptionsBytes + MULTIPART_OVERHEAD_BYTES;
  if (Number(request.headers['content-length'] ?? 0) > maxBodyBytes)
    throw parseErrors.bodyTooLarge(maxBodyBytes);

  let failure: TabhiveError | undefined;
  const fail = (error: TabhiveError) => {
    failure ??= error;
  };
  let options: string | undefined;
  let file: Upload['file'] | undefined;
  const fileDone: Array<Promise<void>> = [];

  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: request.headers as IncomingHttpHeaders & { 'content-type': string },
      // A part is the file only when it says so with a file name; `options` is a field.
      isPartAFile: (_name, _type, filename) => filename !== undefined,
      limits: {
        fieldNameSize: 100,
        fieldSize: maxOptionsBytes,
        fields: 4,
        files: 1,
        fileSize: maxFileBytes,
        parts: 6,
        headerPairs: 20,
      },
    });
  } catch (err) {
    throw parseErrors.badUpload(`The multipart body cannot be read: ${(err as Error).message}`);
  }

  parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (name === 'file') {
      fail(
        parseErrors.badUpload(
          'The "file" part must be a file: give it a filename in its Content-Disposition',
          ['file'],
        ),
      );
    } else if (name !== 'options') {
      fail(parseErrors.badUpload(`Unexpected part "${name}": send only "file" and "options"`, [name]));
    } else if (valueTruncated) {
      fail(parseErrors.badUpload(`The options part is larger than ${maxOptionsBytes} bytes`, ['options']));
    } else if (options !== undefined) {
      fail(parseErrors.badUpload('The options part is sent twice', ['options']));
    } else {
      options = value;
    }
  });
  parser.on('file', (name, stream, filename, _encoding, mimeType) => {
    if (name !== 'file') {
      fail(
        parseErrors.badUpload(`Unexpected file part "${name}": the document goes in the "file" part`, [name]),
      );
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => fail(parseErrors.fileTooLarge(maxFileBytes)));
    fileDone.push(
      new Promise<void>((resolve) => {
        stream.on('end', () => {
          file = { filename, contentType: mimeType, bytes: Buffer.concat(chunks) };
          resolve();
        });
        stream.on('error', () => resolve());
      }),
    );
  });
  parser.on('filesLimit', () =>
    fail(parseErrors.badUpload('Send exactly one file; this request has more', ['file'])),
  );
  parser.on('partsLimit', () => fail(parseErrors.badUpload('The multipart body has too many parts')));
  parser.on('fieldsLimit', () => fail(parseErrors.badUpload('The multipart body has too many fields')));
  const finished = new Promise<void>((resolve) => {
    parser.on('finish', () => resolve());
    parser.on('error', (err: unknown) => {
      fail(
        parseErrors.badUpload(`The multipart body is malformed: ${(err as Error).message ?? String(err)}`),
      );
      resolve();
    });
  });

  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBodyBytes) fail(parseErrors.bodyTooLarge(maxBodyBytes));
    if (failure !== undefined) break;
    // A parser that failed emits no drain: its end ends the wait too.
    if (!parser.write(buffer))
      await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), finished]);
  }
  if (failure === undefined) {
    parser.end();
    await finished;
    await Promise.all(fileDone);
  } else {
    parser.destroy();
  }
  if (failure !== undefined) throw failure;
  if (file === undefined)
    throw parseErrors.badUpload('The body has no "file" part with the document', ['file']);
  return { options, file: { ...file, filename: checkedFilename(file.filename) } };
}

function checkedFilename(filename: string): string {
  const name = filename.trim();
  if (name === '') throw parseErrors.badUpload('The file part needs a filename', ['file']);
  if (name.length > MAX_FILENAME_CHARS || CONTROL_CHARACTERS.test(name)) {
    throw parseErrors.badUpload(
      `The filename must be at most ${MAX_FILENAME_CHARS} characters without control characters`,
      ['file'],
    );
  }
  return name;
}
