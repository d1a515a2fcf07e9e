/**
 * Puts the wllama adapter on `window.wllamaPage` for Playwright (the spec and the bench
 * drive it with page.evaluate). Imports the adapter exactly as the app will, so the
 * build proves the lazy import and the wasm asset. `playTask` runs the project's model
 * driver with the engine on a task the caller names, the path the app's Watch view takes.
 */
import { createWllamaClient, type WllamaClient } from '../../runtime/models/wllama.ts';
import { deleteCachedModel, listCachedModels } from '../../runtime/models/gguf-cache.ts';
import { runModelDriver, resolveSampling } from '../../runtime/drivers/modelDriver.ts';
import { modelDriverInfo } from '../../runtime/drivers/driverInfo.ts';
import { startEpisode } from '../../envs/core/runner.ts';
import { getTask, loadEnv } from '../../envs/index.ts';
import { suiteOf } from '../../suites/index.ts';

/** Plays `steps` steps of the task (seed 0) with the model driver; returns what was recorded. */
async function playTask(client: WllamaClient, envId: string, taskId: string, steps: number, sampling: { temperature: number; maxTokens: number }) {
  const env = await loadEnv(envId);
  const task = getTask(env, taskId);
  const actor = startEpisode(env, task, { seed: 0 });
  const result = await runModelDriver({ actor, env, task, client, ...sampling, maxSteps: steps });
  const history = actor.getSnapshot().context.history.map((h) => ({ action: h.action, actor: h.actor, model: h.model }));
  actor.stop();
  return {
    stop: result.stop,
    error: result.error?.message,
    driver: modelDriverInfo(client, suiteOf(env, undefined, task).id, resolveSampling(suiteOf(env, undefined, task), sampling, env.conversation(suiteOf(env, undefined, task).id, task))),
    history,
  };
}

const api = { createWllamaClient, listCachedModels, deleteCachedModel, playTask };
export type WllamaPageApi = typeof api;

(window as unknown as { wllamaPage: WllamaPageApi }).wllamaPage = api;
document.body.dataset.ready = 'true';
