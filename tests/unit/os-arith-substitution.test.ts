/**
 * A command substitution inside arithmetic runs in the current shell's context, as in GNU bash (run here):
 * just-bash ran it as a new top-level script (in "/", without the shell's variables), so
 * `$(( $(wc -l < f) + 1 ))` said "f: No such file or directory" and counted 1.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as justBash from 'just-bash';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

const SETUP = 'printf "1\\n2\\n3\\n" > f';

const SCRIPTS = [
  'echo $(( $(wc -l < f) + 1 ))',
  'n=4; echo $(( $(echo $n) * 2 ))',
  'echo $(( $(cat f | wc -l) ))',
  'echo $(( `wc -l < f` - 1 ))',
  'x=$(( $(grep -c 2 f) + $(grep -c 3 f) )); echo $x',
  'if (( $(wc -l < f) > 2 )); then echo many; fi',
  'for ((i=0; i<$(wc -l < f); i++)); do echo $i; done',
  'echo $(( $(cd /; pwd | wc -c) )); pwd | wc -c',
];

function gnu(dir: string): string[] {
  return SCRIPTS.map((script) => execFileSync('bash', ['-c', `exec 2>&1; ${script}`], { cwd: dir, env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString());
}

describe('command substitution inside arithmetic', () => {
  it('runs in the current directory with the shell’s variables, as GNU bash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arith-'));
    execFileSync('bash', ['-c', SETUP], { cwd: dir });
    // The embedded shell's directory has the same name length as the temporary one (the last script counts it).
    const here = `/${'w'.repeat(dir.length - 1)}`;
    const expected = gnu(dir);
    const shell = await createEmbeddedShell({ seed: 1 });
    await shell.exec(`mkdir -p ${here} && cd ${here} && ${SETUP}`);
    for (const [i, script] of SCRIPTS.entries()) expect((await shell.exec(`cd ${here}; ${script}`)).output, script).toBe(expected[i]);
    for (const jb of [justBash, (await import('just-bash/browser')) as typeof justBash]) {
      const bash = new jb.Bash({ cwd: here, files: { [`${here}/f`]: '1\n2\n3\n' } });
      for (const [i, script] of SCRIPTS.entries()) {
        const result = await bash.exec(script);
        expect(result.stdout + result.stderr, script).toBe(expected[i]);
      }
    }
  }, 60_000);
});
