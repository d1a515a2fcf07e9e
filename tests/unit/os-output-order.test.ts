/**
 * stdout and stderr in the order they were written. Upstream's OS tasks run bash on a terminal (docker exec with
 * a tty), where both streams reach the agent as one, in write order: `cat missing; echo x` shows the error first.
 * just-bash keeps the two apart; our patch records each result's write order (`outputOrder`) and the embedded
 * shell joins them by it. Each script below is run by GNU bash here with both streams on one pipe
 * (`exec 2>&1`), in a directory prepared the same way; each of its commands writes to one stream only, so the
 * order between commands is the shell's (a command's own two streams are joined stdout first, but for ls, cat
 * and tee, which say themselves in what order they wrote: see envs/os/README.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as justBash from 'just-bash';
import { joinPieces, writeOrder } from '../../envs/os/embedded/output-order.ts';
import { differencesFromGnu, gnuBash } from '../support/gnu-compare.ts';

const SETUP = 'echo a > a';

const SCRIPTS = [
  'cat missing; echo x',
  'echo first; cat missing; echo last',
  'for f in a missing a; do cat $f; done',
  '{ echo 1; ls nope; echo 2; }',
  '(echo a; cat nope; echo b)',
  'echo a; (cat nope; exit 2); echo $?',
  'f(){ echo a; cat nope; echo b; return 3; }; f; echo $?',
  'if cat nope; then echo y; else echo n; fi',
  'case x in x) cat nope; echo in;; esac',
  'cat nope || echo fallback; cat a && ls nope2; echo end',
  'i=0; while true; do i=$((i+1)); echo $i; cat nope$i; [ $i = 2 ] && break; done; echo end',
  'for ((i=0;i<2;i++)); do echo $i; ls /nope$i; done',
  'for i in 1 2; do for j in a b; do echo $i$j; cat n$j; continue 2; done; done',
  'until [ -e a ]; do echo no; done; cat nope; echo ok',
  'echo $(cat missing) after',
  'cat missing | sort; echo done',
  'echo é; cat nope; echo ü',
  '{ echo 1; ls nope; echo 2; } 2>&1 | cat -n',
  '{ echo 1; ls nope; echo 2; } > log 2>&1; cat log',
  'for f in a missing a; do cat $f; done &> log2; cat log2',
  '{ echo 1; ls nope; echo 2; } 2>&1 > log3; cat log3',
  '{ echo 1; ls nope; echo 2; } 2>/dev/null',
  '{ echo 1; ls nope; echo 2; } >/dev/null',
  // ls reports missing operands before it lists anything (the embedded shell's ls says so itself)
  'ls a nope; echo end',
  'ls -l a nope 2>&1 | cut -c1-10',
  // cat writes each file as it comes to it
  'cat a nope a; echo $?',
  'cat nope a nope2 2>&1 | cat -n',
  // tee opens its files before it copies anything
  'tee no/f < a; echo $?',
];

function gnuOutput(scripts: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'order-'));
  execFileSync('bash', ['-c', SETUP], { cwd: dir });
  return scripts.map((script) => gnuBash(script, dir));
}

describe('stdout and stderr in the order written, as on upstream’s terminal', () => {
  it('the embedded shell shows each script’s output as GNU bash writes it to one stream', async () => {
    expect(await differencesFromGnu(SCRIPTS, SETUP)).toBe('');
  }, 60_000);

  it('both builds of just-bash (Node’s and the browser’s) record the order', async () => {
    // just-bash's own ls words its error otherwise (the embedded shell's ls is GNU's wording).
    const scripts = SCRIPTS.filter((script) => !script.includes('log') && !script.includes('ls ') && !script.includes('cat a nope') && !script.includes('cat nope a') && !script.includes('tee '));
    const expected = gnuOutput(scripts);
    for (const jb of [justBash, (await import('just-bash/browser')) as typeof justBash]) {
      const bash = new jb.Bash({ cwd: '/w', files: { '/w/a': 'a\n' } });
      for (const [i, script] of scripts.entries()) {
        const result = await bash.exec(script);
        const order = (result as { outputOrder?: unknown }).outputOrder;
        expect(joinPieces(writeOrder(result.stdout, result.stderr, order)), script).toBe(expected[i]);
      }
    }
  }, 60_000);

  it('without a record that fits both streams, stdout then stderr', () => {
    expect(joinPieces(writeOrder('out\n', 'err\n', [-4, 4]))).toBe('err\nout\n');
    expect(joinPieces(writeOrder('out\n', 'err\n', undefined))).toBe('out\nerr\n');
    expect(joinPieces(writeOrder('out\n', 'err\n', [-4, 3]))).toBe('out\nerr\n');
    expect(joinPieces(writeOrder('out\n', 'err\n', [-4, 4.5]))).toBe('out\nerr\n');
    expect(joinPieces(writeOrder('out\n', 'err\n', [-4, 4]), (text) => text.toUpperCase())).toBe('ERR\nout\n');
  });
});
