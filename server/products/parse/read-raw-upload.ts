import type { IncomingMessage } from 'node:http';
import { parseErrors } from './parse-errors';

/**
 * The body of a staged upload's PUT (the file's bytes as they are), refused with a 413 at once when
 * Content-Length says it is larger than `maxBytes`, and as soon as more than that has arrived
 * otherwise: no more than the limit is ever held. An empty body is a 400.
 */
export async function readRawUpload(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw parseErrors.fileTooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      request.destroy();
      throw parseErrors.fileTooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  if (size === 0) throw parseErrors.badUpload('The uploaded file is empty', ['file']);
  return Buffer.concat(chunks, size);
}
