import type { EnvMeta } from '../core/types.ts';

export const crafterMeta: EnvMeta = {
  id: 'crafter',
  title: 'Crafter',
  suites: [{ suite: 'smartplay' }],
  summary: 'Survive in an open 64×64 world: gather wood and stone, craft tools, keep fed, rested and watered, fend off zombies at night, and unlock up to 22 achievements.',
  scoreRule:
    'Score: each step adds the achievements unlocked so far (human 2,680).',
};
