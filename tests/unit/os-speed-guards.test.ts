/**
 * What the embedded shell's speed-ups must not change: just-bash's defense in depth stays on
 * unless asked off, and the globals a command borrows (Math.random for $RANDOM, a zero
 * Error.stackTraceLimit so just-bash's per-command errors capture no stacks) are given back, and
 * an append that grows a file in place (patches/just-bash: spare room after the bytes) changes no
 * other file's bytes, in both of just-bash's builds, as bash.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  // Copies share their bytes until one is written (just-bash counts the references); a file moved
  // keeps them. Appends after a copy, a move, a read into a variable and a truncation.
  const APPENDS = [
    'for i in 1 2 3; do echo a$i >> f; done; cp f g; echo f4 >> f; echo g4 >> g; mv f h; echo h5 >> h',
    'x=$(cat g); echo g5 >> g; echo "$x" > k; echo k6 >> k; : > g; echo g6 >> g; printf "%s" tail >> g',
    'for i in $(seq 1 300); do echo "line $i of the log" >> big; done; cp big big2; echo end >> big2; echo x >> big',
    'cat h; echo --; cat g; echo; echo --; cat k; wc -c h g k big big2; md5sum big big2; tail -n 2 big big2',
  ].join('\n');

  it('appends that grow a file in place change no other file, in Node\'s and the browser\'s build, as bash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentplay-append-'));
    let bash: string;
    try {
      bash = execFileSync('bash', ['-c', APPENDS], { cwd: dir, env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(bash).toContain('a1\na2\na3\nf4\nh5\n--\ng6\ntail\n--\na1\na2\na3\ng4\nk6\n'); // the reference itself says something
    for (const load of [() => import('just-bash'), () => import('just-bash/browser') as Promise<typeof justBash>]) {
      const shell = await createEmbeddedShell({ seed: 3, load });
      expect((await shell.run(`cd /tmp\n${APPENDS}`)).output).toBe(bash);
    }
  });

  it('an append in place never writes over bytes a file shares with an older read (InMemoryFs, both builds)', async () => {
    for (const jb of [justBash, (await import('just-bash/browser')) as typeof justBash]) {
      const fs = new jb.InMemoryFs();
      await fs.writeFile('/f', 'a');
      await fs.appendFile('/f', 'b'); // f's bytes now have room after them
      const early = await fs.readFileBuffer('/f'); // "ab": the bytes f holds now, room and all
      await fs.appendFile('/f', 'c'); // into that room
      await fs.writeFile('/k', early); // k holds the earlier bytes, ending where "c" now is
      await fs.appendFile('/k', 'X');
      expect([await fs.readFile('/f'), await fs.readFile('/k')]).toEqual(['abc', 'abX']);
    }
  });
});

