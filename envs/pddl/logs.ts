/** AgentBoard's log of this environment: `{log_path}/logs/pddl.jsonl` (envs/core/logs.ts). */
import type { EnvLogs } from '../core/logs.ts';

export const logs: EnvLogs = {
  ownsPath: (path) => /(?:^|[\\/])pddl\.jsonl$/.test(path),
};
