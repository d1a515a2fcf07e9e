/**
 * Recursive grep as GNU grep 3.8 (Debian 12, run here; both streams on one pipe, as on upstream's terminal):
 * `grep -r x` with no file searches "."; files under "." are named "./a"; a missing operand is reported
 * (status 2); -s keeps such messages quiet. GNU walks a directory in the filesystem's order, so scripts whose
 * output has several files sort it.
 */
import { describe, expect, it } from 'vitest';
import { differencesFromGnu } from '../support/gnu-compare.ts';

const SETUP = 'mkdir -p d e && echo a > a && echo a > d/f && touch e/x';

const SCRIPTS = [
  'grep -r a . | sort',
  'grep -r a | sort',
  'grep -rl a . | sort',
  'grep -rn a . | sort',
  'grep -rc a . | sort',
  'grep -rh a .',
  'echo b | grep -r a | sort',
  'grep -r -e a -e b | sort',
  'grep -r a d',
  'grep -r x missing; echo $?',
  'grep -r a missing d; echo $?',
  'grep -rq a . missing; echo $?',
  'grep -rs x missing; echo $?',
  'grep -s a missing; echo $?',
  'grep -e -s a; echo $?',
];

describe('recursive grep, as GNU grep', () => {
  it('searches, names and reports as GNU grep does here', async () => {
    expect(await differencesFromGnu(SCRIPTS, SETUP)).toBe('');
  }, 60_000);
});
