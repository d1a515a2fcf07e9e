/**
 * Starts what playing a task will need before its page opens (the environment's `prepare`: an OS
 * task's shell and its init scripts), when a person is about to play it: a study's next task, a
 * Play link the pointer rests on or that has the keyboard's focus. The episode is the same; only
 * its first command no longer waits for the init.
 */
import { entries, getTask } from '../../envs/index.ts';
import type { Route } from './router.svelte.ts';
import { loadEnvWithTasks } from './importedTasks.ts';
import { onIntent } from './intent.ts';

export function prepareTask(envId: string, taskId: string, seed: number): void {
  void loadEnvWithTasks(envId)
    .then((env) => env.prepare?.(getTask(env, taskId), seed))
    .catch(() => undefined);
}

/** Handlers for a Play link: prepare when the pointer rests on it or the focus stays on it. */
export function prepareOnIntent(envId: string, taskId: string, seed: number) {
  return onIntent(() => prepareTask(envId, taskId, seed));
}

/**
 * A page opened on a Play link: its environment starts what a first episode needs (EnvEntry.opening:
 * the OS's shell worker) while the page's own code loads, not once the Play view asks for it.
 */
export function prepareOpenedLink(route: Route): void {
  if (route.name === 'play') entries().find((e) => e.id === route.params[0])?.opening?.();
}
