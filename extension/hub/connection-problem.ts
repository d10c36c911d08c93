import { storage } from 'wxt/utils/storage';
import { ConnectionProblem } from '../ui/ui-messages';

/**
 * A problem that outlives the worker: a revoked pairing stays revoked, so a restarted worker
 * shows it and does not knock on the server again until the person pairs anew.
 */
const problemItem = storage.defineItem<unknown>('local:connectionProblem', { fallback: null });

export async function readStoredProblem(): Promise<ConnectionProblem | undefined> {
  const parsed = ConnectionProblem.safeParse(await problemItem.getValue());
  return parsed.success ? parsed.data : undefined;
}

export async function storeProblem(problem: ConnectionProblem | undefined): Promise<void> {
  await problemItem.setValue(problem ?? null);
}
