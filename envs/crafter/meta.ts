import type { EnvMeta } from '../core/types.ts';

export const crafterMeta: EnvMeta = {
  id: 'crafter',
  title: 'Crafter',
  suites: [{ suite: 'smartplay' }],
  summary: 'Survive in an open 64×64 world: gather wood and stone, craft tools, keep fed, rested and watered, fend off zombies at night, and unlock up to 22 achievements.',
  scoreRule:
    'Score (SmartPlay) = the sum over the steps of the number of achievements unlocked so far, so an early achievement counts at every later step; normalised by the human score 2,680.',
};
