/**
 * Runs scripts in GNU bash here and in the embedded shell, in a directory prepared the same way, and lists where
 * they differ. GNU bash gets both streams on one pipe (`exec 2>&1`), as upstream's terminal shows them; the
 * embedded shell works in /w.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

/** What GNU bash prints for `script` in `cwd`, both streams as one, in the POSIX locale. */
export function gnuBash(script: string, cwd: string): string {
  return execFileSync('bash', ['-c', `exec 2>&1; ${script}\ntrue`], { cwd, env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString();
}

export interface CompareOptions {
  /** A new directory and shell for each script (for scripts that change what the next one sees). */
  freshEach?: boolean;
  /** Applied to GNU's output first (e.g. bash -c's "bash: line 1: " where an interactive shell says "bash: "). */
  normalize?: (gnu: string) => string;
}

/** Each script whose output differs, with both outputs; '' when none does. */
export async function differencesFromGnu(scripts: readonly string[], setup: string, options: CompareOptions = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gnu-'));
  const prepare = async () => {
    execFileSync('bash', ['-c', `rm -rf ./* && ${setup}`], { cwd: dir });
    const shell = await createEmbeddedShell({ seed: 1 });
    await shell.exec(`mkdir -p /w && cd /w && ${setup}`);
    return shell;
  };
  let shell = await prepare();
  const differ: string[] = [];
  for (const [i, script] of scripts.entries()) {
    if (options.freshEach && i > 0) shell = await prepare();
    const gnu = (options.normalize ?? ((text: string) => text))(gnuBash(script, dir));
    const got = (await shell.exec(`cd /w; ${script}`)).output;
    if (got !== gnu) differ.push(`${script}\n  gnu: ${JSON.stringify(gnu)}\n  got: ${JSON.stringify(got)}`);
  }
  return differ.join('\n');
}
