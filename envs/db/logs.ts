/**
 * AgentBench's outputs of this environment (envs/core/logs.ts): `{agent}/{task}/runs.jsonl`
 * with a task named dbbench-… (or db…); sample indices are the dev set's sample numbers; the
 * opening turns are the instruction, the agent's "Ok.", then the question.
 */
import type { EnvLogs } from '../core/logs.ts';

const taskFolder = (path: string): string => path.split(/[\\/]/).filter(Boolean).at(-2) ?? '';

export const logs: EnvLogs = {
  ownsPath: (path) => /^db|dbbench/.test(taskFolder(path)),
  ownsText: (text) => /MySQL|Action: Operation/.test(text),
  sampleTask(tasks, index) {
    const k = typeof index === 'number' ? index : Number(index);
    return tasks.find((t) => t.id === `db-dev-${String(k).padStart(3, '0')}`) ?? null;
  },
};
