import type { EnvMeta } from '../../../envs/core/types.ts';

export const guessMeta: EnvMeta = {
  id: 'guess',
  title: 'Guess the number (test game)',
  // A game from no paper: it scores as itself.
  suites: [{ suite: 'custom' }],
  summary: 'A tiny game that lives in tests/: it proves a new environment is one folder and one catalogue line.',
};
