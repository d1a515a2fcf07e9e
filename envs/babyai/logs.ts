/** AgentBoard's log of this environment: `{log_path}/logs/babyai.jsonl` (envs/core/logs.ts). */
import type { EnvLogs } from '../core/logs.ts';

export const logs: EnvLogs = {
  ownsPath: (path) => /(?:^|[\\/])babyai\.jsonl$/.test(path),
};
