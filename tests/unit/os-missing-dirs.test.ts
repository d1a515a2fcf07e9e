/**
 * Writing into a directory that does not exist fails, as on a real filesystem (just-bash's in-memory one made
 * the directory: `echo x > no/f` succeeded and `ls no` listed f). Compared with GNU bash and coreutils run here;
 * bash run with -c says "bash: line 1: …" where upstream's interactive shell says "bash: …", so that prefix is
 * read as the interactive one. cp, mv and ln with two operands name the destination as GNU's do
 * ("cp: cannot create regular file 'x/y'"; just-bash named the source, or nothing).
 */
import { describe, expect, it } from 'vitest';
import * as justBash from 'just-bash';
import { errorWords, fsErrorText } from '../../envs/os/embedded/errors.ts';
import { differencesFromGnu } from '../support/gnu-compare.ts';

const SETUP = 'mkdir -p d && echo a > a';

const SCRIPTS = [
  'echo x > x/y; echo next; ls x',
  'echo x >> x/y; echo $?',
  'echo x > a/b; echo $?',
  'cat a > x/y 2>&1; echo $?',
  '{ echo 1; echo 2; } > /nope/f; echo $?',
  'touch x/y; echo $?; ls x',
  'touch a/b; echo $?',
  'tee x/y < a > /dev/null; echo $?',
  'mkdir x/y; echo $?',
  'dd if=a of=x/y status=none; echo $?',
  'truncate -s 1 x/y; echo $?',
  'cp a x/y; echo $?; ls x',
  'cp -r d x/y; echo $?; ls x',
  'mv a x/y; echo $?; ls a',
  'ln -s a x/y; echo $?; ls x',
  'ln a x/y; echo $?; ls x',
  'ln -sf a x/y; echo $?',
  'cp a a/b; mv a a/b; ln -s a a/b; ln a a/b; cp -r d a/c',
  'cp missing x/y; ln missing x/y',
  'echo hi > d/new; cat d/new; cp a d/b; mv d/b d/c; ls d',
];

describe('writing where no directory is', () => {
  it('fails as GNU bash and coreutils do, and leaves nothing behind', async () => {
    const interactive = (gnu: string) => gnu.replace(/^bash: line \d+: /gm, 'bash: ');
    expect(await differencesFromGnu(SCRIPTS, SETUP, { freshEach: true, normalize: interactive })).toBe('');
  }, 60_000);

  it('both builds of just-bash (Node’s and the browser’s) check a redirection’s directory', async () => {
    for (const jb of [justBash, (await import('just-bash/browser')) as typeof justBash]) {
      const bash = new jb.Bash({ files: { '/w/a': 'a\n' } });
      const result = await bash.exec('echo x > /nowhere/f; echo $?; echo y > /w/a/f; echo $?; echo z > /w/ok; cat /w/ok');
      expect(result.stdout).toBe('1\n1\nz\n');
      expect(result.stderr).toBe('bash: /nowhere/f: No such file or directory\nbash: /w/a/f: Not a directory\n');
    }
  });

  it('the refusal names its file where a message shows the error as it is, and gives just the words elsewhere', () => {
    const refusal = Object.assign(new Error('No such file or directory'), { code: 'ENOENT', path: '/w/x/y' });
    expect(fsErrorText(refusal)).toBe('/w/x/y: No such file or directory');
    expect(errorWords(refusal)).toBe('No such file or directory');
    expect(fsErrorText(new Error("ENOENT: no such file or directory, open '/w/a'"))).toBe('/w/a: No such file or directory');
  });
});
