import { describe, expect, it } from 'vitest';
import { createLifecycle } from '../../../server/platform/lifecycle/lifecycle';
import { recordingLog } from '../../helpers/recording-log';

describe('lifecycle', () => {
  it('starts components in the order they were made and closes them the other way round', async () => {
    const { log } = recordingLog();
    const lifecycle = createLifecycle(log);
    const steps: string[] = [];
    for (const name of ['database', 'hub', 'job runner']) {
      lifecycle.use(name, {
        start: () => void steps.push(`start ${name}`),
        close: async () => {
          await Promise.resolve();
          steps.push(`close ${name}`);
        },
      });
    }
    lifecycle.use('socket', { close: () => void steps.push('close socket') });
    lifecycle.start();
    await lifecycle.close();
    expect(steps).toEqual([
      'start database',
      'start hub',
      'start job runner',
      'close socket',
      'close job runner',
      'close hub',
      'close database',
    ]);
  });

  it('closes the rest when one component fails to close, and says which failed', async () => {
    const { log, lines } = recordingLog();
    const lifecycle = createLifecycle(log);
    const closed: string[] = [];
    lifecycle.use('database', { close: () => void closed.push('database') });
    lifecycle.use('workers', {
      close: () => Promise.reject(new Error('worker stuck')),
    });
    lifecycle.use('sockets', { close: () => void closed.push('sockets') });
    await lifecycle.close();
    expect(closed).toEqual(['sockets', 'database']);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ component: 'workers' }) }),
    );
  });

  it('closes once however often a stop is asked for', async () => {
    const { log } = recordingLog();
    const lifecycle = createLifecycle(log);
    let closes = 0;
    lifecycle.use('database', { close: () => void closes++ });
    await Promise.all([lifecycle.close(), lifecycle.close()]);
    await lifecycle.close();
    expect(closes).toBe(1);
  });
});
