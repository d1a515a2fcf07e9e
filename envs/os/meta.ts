import type { EnvMeta } from '../core/types.ts';

export const osMeta: EnvMeta = {
  id: 'os',
  title: 'OS Interaction',
  suites: [{ suite: 'agentbench', column: 'OS' }],
  summary: 'Answer questions about, or change, a Linux (Ubuntu) machine by running bash commands: at most 8 turns.',
  scoreRule:
    'Score = 1 when your answer (or the system’s state) passes the task’s own check, else 0 (AgentBench).',
  inexactReplay:
    'a command is stopped after a wall-clock time limit, some commands read the machine they run on (ps, free, uptime), and the WebContainer and Linux shells are real machines, so a replay may differ from the record',
};
