import type { EnvMeta } from '../core/types.ts';

export const alfworldMeta: EnvMeta = {
  id: 'alfworld',
  title: 'ALFWorld household tasks',
  suites: [
    { suite: 'agentbench', column: 'HH' },
    { suite: 'agentboard', column: 'ALF' },
  ],
  summary: 'Find, carry, clean, heat, cool or light things in a house by text commands (TextWorld games from ALFRED).',
  scoreRule:
    "Score = 1 when the game's goal holds (success). AgentBoard's progress rate needs its subgoal labels, which are not public: its ALFWorld tasks score success only.",
};
