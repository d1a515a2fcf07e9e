import type { EnvMeta } from '../core/types.ts';

export const pddlMeta: EnvMeta = {
  id: 'pddl',
  title: 'PDDL planning games',
  suites: [{ suite: 'agentboard', column: 'PL' }],
  summary: 'Reach a goal by planning text actions in four classic planning domains: gripper, blocksworld, barman and tyreworld.',
  scoreRule:
    'Score = progress rate: the highest share of the goal conditions that held at once so far (AgentBoard); solved when all hold.',
};
