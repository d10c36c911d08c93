import { writeFile } from 'node:fs/promises';
import { UsageError } from '../usage-error';

/** Text as a file or a terminal wants it: ending with a newline (an empty text stays empty). */
export const withFinalNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

/** `text` on stdout or into `file`, with a final newline; bytes (a screenshot) as they are. */
export async function writeOutput(text: string | Buffer, file: string | undefined): Promise<void> {
  if (file === undefined) {
    // On stdout even an empty result ends its line.
    const chunk = typeof text === 'string' && !text.endsWith('\n') ? `${text}\n` : text;
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(chunk, (err) => (err ? reject(err) : resolve())),
    );
    return;
  }
  const chunk = typeof text === 'string' ? withFinalNewline(text) : text;
  try {
    await writeFile(file, chunk);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

/** The machine-readable result of a --json run. */
export const writeJson = (value: unknown) => writeOutput(JSON.stringify(value, null, 2), undefined);
