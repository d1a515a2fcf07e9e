import type { EnvMeta } from '../core/types.ts';

export const banditsMeta: EnvMeta = {
  id: 'bandits',
  title: 'Two-Armed Bandits',
  suites: [{ suite: 'smartplay' }],
  summary: 'Two slot machines, one pays far more often: find it and keep pulling it.',
  scoreRule:
    'Score = how many of your pulls chose the machine with the better expected payout (SmartPlay); the reward is what the machine paid, so the two differ.',
};
