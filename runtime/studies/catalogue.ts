/**
 * A study file checked against the task catalogue when it loads: every task's
 * environment and task id must exist here, or a participant would reach a task
 * that cannot start. Errors name the field, as the schema's do
 * (`tasks[3].task: unknown task "hanoi-99" (hanoi has hanoi-3, hanoi-4)`).
 */
import { envIds, loadEnv } from '../../envs/index.ts';
import type { EnvDefinition } from '../../envs/core/types.ts';
import type { Study } from './schema.ts';

/** Where the environments come from (the app's catalogue unless a test gives its own). */
export interface StudyCatalogue {
  ids(): string[];
  load(id: string): Promise<EnvDefinition>;
}

const APP_CATALOGUE: StudyCatalogue = { ids: envIds, load: loadEnv };

/** A short list of ids: all when few, else the first three, the last and how many. */
function someIds(ids: readonly string[]): string {
  return ids.length <= 12 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} … ${ids.at(-1)} (${ids.length} tasks)`;
}

/** The study's tasks that this catalogue does not know, one error per field; empty when all are known. */
export async function checkStudyTasks(study: Study, catalogue: StudyCatalogue = APP_CATALOGUE): Promise<string[]> {
  const known = catalogue.ids();
  const loaded = new Map<string, Promise<EnvDefinition>>();
  const errors: string[] = [];
  for (const [i, item] of study.tasks.entries()) {
    if (!known.includes(item.env)) {
      errors.push(`tasks[${i}].env: unknown environment "${item.env}" (known: ${known.join(', ')})`);
      continue;
    }
    if (!loaded.has(item.env)) loaded.set(item.env, catalogue.load(item.env));
    let env: EnvDefinition;
    try {
      env = await loaded.get(item.env)!;
    } catch (e) {
      errors.push(`tasks[${i}].env: environment "${item.env}" could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const tasks = env.tasks();
    const found = tasks.some((t) => t.id === item.task || t.name === item.task) || env.resolveTask?.(item.task);
    if (!found) errors.push(`tasks[${i}].task: unknown task "${item.task}" (${item.env} has ${someIds(tasks.map((t) => t.id))})`);
  }
  return errors;
}
