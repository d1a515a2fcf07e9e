/**
 * AgentBench's outputs of this environment (envs/core/logs.ts): `{agent}/{task}/runs.jsonl`
 * with a task named os-…; sample indices are "{prefix}{file}-%05d" (our task's upstream name), the
 * result `{"result": bool, "file", "index_in_file"}`; the opening turns are the instruction, the
 * one-shot problem and its turns, then "Now, I will start a new problem…".
 */
import type { EnvLogs } from '../core/logs.ts';

/** The AgentBench folder `{task}` of a runs.jsonl path. */
const taskFolder = (path: string): string => path.split(/[\\/]/).filter(Boolean).at(-2) ?? '';

export const logs: EnvLogs = {
  ownsPath: (path) => /^os/.test(taskFolder(path)),
  ownsText: (text) => /play the role of linux\(ubuntu\) operating system/.test(text),
  sampleTask(tasks, index, result) {
    if (typeof index === 'string') {
      const byName = tasks.find((t) => t.name === index);
      if (byName) return byName;
    }
    const k = typeof result.index_in_file === 'number' ? result.index_in_file : typeof index === 'number' ? index : NaN;
    return tasks.find((t) => t.id === `os-dev-${String(k).padStart(2, '0')}`) ?? null;
  },
  problemTurn: 'Now, I will start a new problem',
};
