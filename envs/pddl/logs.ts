/** AgentBoard's log of this environment: `{log_path}/logs/pddl.jsonl` (envs/core/logs.ts). */
import type { EnvLogs } from '../core/logs.ts';
import { goalText } from './index.ts';
import type { PddlTask } from './problems.ts';

export const logs: EnvLogs = {
  ownsPath: (path) => /(?:^|[\\/])pddl\.jsonl$/.test(path),
  // AgentBoard's record: task_name = env.game_name (the domain), goal = env._get_goal() (agentboard/tasks/pddl.py).
  recordTasks: (tasks, record) =>
    (tasks as readonly PddlTask[]).filter((t) => t.domain === record.taskName && goalText(t) === record.goal),
};
