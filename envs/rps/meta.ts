import type { EnvMeta } from '../core/types.ts';

export const rpsMeta: EnvMeta = {
  id: 'rps',
  title: 'Rock Paper Scissors',
  suites: [{ suite: 'smartplay' }],
  summary: 'A biased opponent: learn which move it favours and play the best response.',
  scoreRule:
    'Score = how many rounds you played the best response to the opponent’s bias (SmartPlay); the reward is what the round paid (win, draw or loss).',
};
