import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The embedded store's directory is one process's: a second one would lose writes (see create-embedded-database). */
export const LOCK_FILE = 'tabhive.lock';

export class DirectoryLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `${dir} is in use by process ${pid} (a running Tabhive server?). The embedded store serves one process: stop that process first, or use MONGODB_URL, or the admin API (ADMIN_API_KEY) to change teams and keys while the server runs.`,
    );
    this.name = 'DirectoryLockedError';
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The live process other than this one that holds the directory, if any: what a start checks
 * before it builds or launches anything, so that it can name the process instead of failing late.
 */
export async function directoryLockHolder(dir: string): Promise<number | undefined> {
  const pid = Number((await readFile(path.join(dir, LOCK_FILE), 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

/**
 * Takes the directory for this process, writing its pid to `tabhive.lock`. A lock left by a
 * process that is gone is taken over; one of a live other process throws DirectoryLockedError.
 * The same process may open the directory again (tests restart a server in-process). Returns
 * the release function.
 */
export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (pid === process.pid) return async () => undefined;
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DirectoryLockedError(dir, pid);
      await rm(file, { force: true });
    }
  }
  return async () => {
    const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (pid === process.pid) await rm(file, { force: true });
  };
}
