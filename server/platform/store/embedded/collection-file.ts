import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';

/**
 * A collection's append-only file. Appends are grouped: the lines appended during one turn of
 * the event loop go out in one write, so a burst of N writes costs one system call, not N opens,
 * writes and closes. An append resolves once its line is in the file (handed to the operating
 * system, not fsynced: a process crash loses nothing acknowledged, a power cut may lose the last
 * moments). `rewrite` replaces the whole file crash-safely (temporary file, fsync, rename), which
 * is how the collection compacts its history.
 *
 * The grouped write is synchronous on purpose. It lands in the page cache in microseconds; an
 * asynchronous write goes through libuv's thread pool, and on a busy two-core machine the event
 * loop was measured waiting on that hand-off for a quarter of a crawl (a pool thread holding the
 * queue's lock while descheduled).
 *
 * After a failed write the file no longer matches what the collection holds in memory, so every
 * later call fails with that error; a restart reloads the file.
 */
export interface CollectionFile {
  /** One line, or several joined by newlines: they go out in one piece. */
  append(lines: string): Promise<void>;
  /** `content` is called after every earlier append is written, and must describe the whole collection. */
  rewrite(content: () => string): Promise<void>;
  close(): Promise<void>;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** Lines are read back as they are; corruption is the caller's to judge (a torn last line is normal after a crash). */
export async function readCollectionFile(file: string): Promise<string[]> {
  await recoverInterruptedRewrite(file);
  if (!(await exists(file))) return [];
  const lines: string[] = [];
  const input = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of input) if (line.length > 0) lines.push(line);
  return lines;
}

export function openCollectionFile(file: string): CollectionFile {
  let fd: number | undefined = openSync(file, 'a');
  let pending: string[] = [];
  let waiters: Waiter[] = [];
  let scheduled = false;
  let rewriting = false;
  let rewrites: Promise<void> = Promise.resolve();
  let failure: unknown;
  let closed = false;

  const guard = () => {
    if (failure !== undefined) throw failure;
    if (closed) throw new Error(`${file} is closed`);
  };

  /** Writes what is pending now, unless a rewrite is swapping the file (it flushes when done). */
  function flush(): void {
    scheduled = false;
    if (rewriting || pending.length === 0) return;
    const text = pending.join('');
    const settled = waiters;
    pending = [];
    waiters = [];
    try {
      if (failure !== undefined) throw failure;
      writeAll(fd as number, text);
      for (const waiter of settled) waiter.resolve();
    } catch (error) {
      failure ??= error;
      for (const waiter of settled) waiter.reject(failure);
    }
  }

  async function swap(content: () => string): Promise<void> {
    guard();
    flush();
    const text = content();
    rewriting = true;
    const temporary = `${file}~`;
    try {
      const next = await open(temporary, 'w');
      try {
        await next.writeFile(text, 'utf8');
        await next.sync();
      } finally {
        await next.close();
      }
      closeSync(fd as number);
      fd = undefined;
      await rename(temporary, file);
      fd = openSync(file, 'a');
    } catch (error) {
      failure ??= error;
      throw error;
    } finally {
      rewriting = false;
      flush();
    }
  }

  return {
    append(lines) {
      try {
        guard();
      } catch (error) {
        return Promise.reject(error);
      }
      pending.push(`${lines}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    rewrite(content) {
      const run = rewrites.then(() => swap(content));
      rewrites = run.catch(() => undefined);
      return run;
    },
    async close() {
      if (closed) return;
      await rewrites;
      flush();
      closed = true;
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
}

/**
 * A rewrite interrupted between writing the temporary file and renaming it leaves `file~` beside
 * (or instead of) `file`. The temporary file is complete only if the rename was next, i.e. when
 * `file` is gone; otherwise `file` is still the truth and the temporary one is dropped.
 */
async function recoverInterruptedRewrite(file: string): Promise<void> {
  const temporary = `${file}~`;
  if (!(await exists(temporary))) return;
  if (await exists(file)) await rm(temporary, { force: true });
  else await rename(temporary, file);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
