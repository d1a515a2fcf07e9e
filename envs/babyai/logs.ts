/** AgentBoard's log of this environment: `{log_path}/logs/babyai.jsonl` (envs/core/logs.ts). */
import type { EnvLogs } from '../core/logs.ts';
import { babyaiGoal, type BabyAITask } from './index.ts';

export const logs: EnvLogs = {
  ownsPath: (path) => /(?:^|[\\/])babyai\.jsonl$/.test(path),
  // AgentBoard's record: task_name = env.game_name (the gym id, BabyAI-<Level>-v0), goal = the goal line
  // (agentboard/tasks/babyai.py); the level is compared first, so only its four seeds are generated.
  recordTasks: (tasks, record) =>
    (tasks as readonly BabyAITask[]).filter((t) => t.envId === record.taskName && babyaiGoal(t) === record.goal),
};
