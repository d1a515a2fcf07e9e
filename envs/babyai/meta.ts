import type { EnvMeta } from '../core/types.ts';

export const babyaiMeta: EnvMeta = {
  id: 'babyai',
  title: 'BabyAI',
  suites: [{ suite: 'agentboard', column: 'BA' }],
  summary: 'Follow a BabyAI instruction in a minigrid world seen through a 7×7 view: go to, open, pick up, unlock — 112 AgentBoard problems.',
  scoreRule:
    'Score = progress rate: the share of AgentBoard’s subgoals for this mission reached so far; solved when the mission is done.',
};
