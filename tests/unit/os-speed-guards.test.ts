/**
 * What the embedded shell's speed-ups must not change: just-bash's defense in depth stays on
 * unless asked off, and the globals a command borrows (Math.random for $RANDOM, a zero
 * Error.stackTraceLimit so just-bash's per-command errors capture no stacks) are given back.
 */
import { describe, expect, it } from 'vitest';
import * as justBash from 'just-bash';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

/** just-bash whose Bash records the defense-in-depth option of each instance the shell makes. */
function recordingLoad(seen: unknown[]) {
  class RecordingBash extends justBash.Bash {
    constructor(options?: ConstructorParameters<typeof justBash.Bash>[0]) {
      if (options?.fs) seen.push(options.defenseInDepth);
      super(options);
    }
  }
  return async () => ({ ...justBash, Bash: RecordingBash }) as typeof justBash;
}

describe('os: embedded shell speed-ups keep its guards', () => {
  it('defense in depth is on by default and off only when asked', async () => {
    const seen: unknown[] = [];
    const shell = await createEmbeddedShell({ seed: 1, load: recordingLoad(seen) });
    expect((await shell.exec('echo hi')).output).toBe('hi\n');
    expect(seen).toEqual([true]);
    const bare = await createEmbeddedShell({ seed: 1, load: recordingLoad(seen), defenseInDepth: false });
    expect((await bare.exec('echo hi')).output).toBe('hi\n');
    expect(seen).toEqual([true, false]);
  });

  it('a command gives back Math.random and Error.stackTraceLimit, also when it fails', async () => {
    const shell = await createEmbeddedShell({ seed: 2 });
    const random = Math.random;
    const limit = Error.stackTraceLimit;
    expect(limit).toBeGreaterThan(0);
    await shell.exec('echo $RANDOM; x=$((1/0)); ls /nowhere');
    await shell.run('exit 3');
    expect(Math.random).toBe(random);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('x').stack).toContain('os-speed-guards');
  });
});
