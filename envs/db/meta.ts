import type { EnvMeta } from '../core/types.ts';

export const dbMeta: EnvMeta = {
  id: 'db',
  title: 'Database (AgentBench DB)',
  suites: [{ suite: 'agentbench', column: 'DB' }],
  summary: 'Answer a question about one table, or change it, by running SQL; then give the final answer.',
  scoreRule:
    'Score = 1 when your answer is right — or, for a task that changes the table, when the table ends up exactly as expected — else 0 (AgentBench).',
  inexactReplay: 'a statement is stopped after 2 s of wall-clock time, so on a slower or faster machine a replay may differ from the record',
};
