import { describe, expect, it } from 'vitest';
import { invokedAs } from '../../../server/api/cli/tabhive/invoked-as';

describe('invokedAs', () => {
  it('writes commands back the way npm ran the command line', () => {
    expect(invokedAs({ npm_command: 'exec', npm_lifecycle_event: 'npx' })).toBe('npx tabhive');
    expect(invokedAs({ npm_command: 'run', npm_lifecycle_event: 'tabhive' })).toBe('npm run tabhive --');
    expect(invokedAs({ npm_command: 'run-script', npm_lifecycle_event: 'tabhive' })).toBe(
      'npm run tabhive --',
    );
  });

  it('says plain tabhive otherwise, also inside another npm script', () => {
    expect(invokedAs({})).toBe('tabhive');
    expect(invokedAs({ npm_command: 'run', npm_lifecycle_event: 'crawl-docs' })).toBe('tabhive');
  });
});
