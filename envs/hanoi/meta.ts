import type { EnvMeta } from '../core/types.ts';

export const hanoiMeta: EnvMeta = {
  id: 'hanoi',
  title: 'Tower of Hanoi',
  suites: [{ suite: 'smartplay' }],
  summary: 'Move the stack of disks from rod A to rod C, one disk at a time, never a bigger disk on a smaller one.',
  scoreRule:
    'Score = the number of disks on rod C (SmartPlay); solved when all of them are there. An illegal move gives reward −1 and changes nothing.',
};
