import { writeFile } from 'node:fs/promises';
import { UsageError } from '../usage-error';

/** `text` on stdout (with a final newline), or into `file` as it is. */
export async function writeOutput(text: string | Buffer, file: string | undefined): Promise<void> {
  if (file === undefined) {
    const chunk = typeof text === 'string' && !text.endsWith('\n') ? `${text}\n` : text;
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(chunk, (err) => (err ? reject(err) : resolve())),
    );
    return;
  }
  try {
    await writeFile(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

/** The machine-readable result of a --json run. */
export const writeJson = (value: unknown) => writeOutput(JSON.stringify(value, null, 2), undefined);
