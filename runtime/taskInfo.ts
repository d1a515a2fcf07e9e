/**
 * What scoring needs to know about each task, from the environment catalogue: the app's
 * scores view (in a Web Worker), the CLI's `scores` and the batch summaries all use this,
 * so a task counts in the same column everywhere.
 */
import { findEntry, getTask } from '../envs/index.ts';
import type { EnvDefinition } from '../envs/core/types.ts';
import type { TaskInfoFn, TaskMeta } from './scores/types.ts';
import { taskMeta } from './scores/taskmeta.ts';
import { columnOf, suiteOf } from '../suites/index.ts';

/** taskInfo over environments already loaded; a task they do not know gets undefined (left out as 'unknown task'). */
export function envTaskInfo(envs: readonly EnvDefinition[]): TaskInfoFn {
  const byId = new Map(envs.map((e) => [e.id, e]));
  const cache = new Map<string, TaskMeta | undefined>();
  return (envId, taskId) => {
    const key = `${envId}\u0000${taskId}`;
    if (!cache.has(key)) {
      const env = byId.get(envId);
      let meta: TaskMeta | undefined;
      if (env) {
        try {
          const task = getTask(env, taskId) as Parameters<typeof taskMeta>[2];
          // Tasks resolved beyond the built-in list (e.g. babyai-<Level>-seed<N>) stand outside the paper's columns.
          const suite = suiteOf(env, undefined, task);
          meta = taskMeta(suite, columnOf(env, suite.id), task, env.tasks().some((t) => t.id === task.id));
        } catch {
          meta = undefined; // a task this catalogue does not know (e.g. from an imported task file)
        }
      }
      cache.set(key, meta);
    }
    return cache.get(key);
  };
}

/** taskInfo from the environment catalogue, loading only the environments the episodes use. */
export async function catalogueTaskInfo(records: readonly { header: { env: string } }[]): Promise<TaskInfoFn> {
  const envs: EnvDefinition[] = [];
  for (const id of new Set(records.map((r) => r.header.env))) {
    try {
      envs.push(await findEntry(id).load());
    } catch {
      // an environment this catalogue does not have: its episodes are left out as 'unknown task'
    }
  }
  return envTaskInfo(envs);
}
