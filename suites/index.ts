/**
 * The catalogue of suites: one line each, as envs/index.ts lists environments. A suite is a
 * benchmark as a part (envs/core/suite.ts): its conversation, its plan, its score table.
 * Adding a suite = its folder under suites/ and one line here.
 */
import type { Suite } from '../envs/core/suite.ts';
import type { EnvMeta, TaskInfo } from '../envs/core/types.ts';
import type { PromptPlan, ProtocolParams } from '../envs/core/prompts/index.ts';
import { suite as smartplay } from './smartplay/index.ts';
import { suite as agentbench } from './agentbench/index.ts';
import { suite as agentboard } from './agentboard/index.ts';
import { suite as custom } from './custom/index.ts';

export const SUITES: readonly Suite[] = [smartplay, agentbench, agentboard, custom];

/** Suites added at run time (a test's own, a user's plugin). */
const extra: Suite[] = [];

export function registerSuite(suite: Suite): void {
  if (suites().some((s) => s.id === suite.id)) throw new Error(`A suite with id "${suite.id}" is already registered.`);
  extra.push(suite);
}

export function suites(): readonly Suite[] {
  return extra.length === 0 ? SUITES : [...SUITES, ...extra];
}

export function suiteById(id: string): Suite {
  const found = suites().find((s) => s.id === id);
  if (!found) throw new Error(`Unknown suite "${id}". Known: ${suites().map((s) => s.id).join(', ')}.`);
  return found;
}

/** The suite an environment plays under: `id` when it belongs to it, else the task's own suite (TaskInfo.suite), else its first (its default). */
export function suiteOf(env: Pick<EnvMeta, 'id' | 'suites'>, id?: string, task?: { suite?: string }): Suite {
  // A task that belongs to one of its environment's suites plays under it (ALFWorld's lists).
  if (id === undefined && task?.suite !== undefined) id = task.suite;
  if (id !== undefined) {
    if (!env.suites.some((m) => m.suite === id)) throw new Error(`${env.id} is not in the suite "${id}"; it is in ${env.suites.map((m) => m.suite).join(', ')}.`);
    return suiteById(id);
  }
  return suiteById(env.suites[0].suite);
}

/** The names of the suites an environment belongs to ('AgentBench'), its default first. */
export function suiteNames(env: Pick<EnvMeta, 'suites'>): string[] {
  return env.suites.map((m) => suites().find((s) => s.id === m.suite)?.name ?? m.suite);
}

/** The environment's column in a suite's published table (AgentBench 'OS'), if it has one. */
export function columnOf(env: Pick<EnvMeta, 'suites'>, suite: string): string | undefined {
  return env.suites.find((m) => m.suite === suite)?.column;
}

/** What a conversation needs of an environment. */
export interface ConversationEnv {
  id: string;
  suites: EnvMeta['suites'];
  manual(task: never, seed?: number): string;
  conversation(suite: string, task: never): ProtocolParams;
}

/**
 * The requests of this step under the environment's suite (its default unless `suite` is given),
 * for this task at this point of an episode (its seed, observations and actions), with the task's
 * own conversation parameters unless `params` are given. The model driver sends these; the text
 * view shows them.
 */
export function conversationFor(
  env: ConversationEnv,
  task: TaskInfo,
  episode: { seed: number; observations: readonly string[]; actions: readonly string[] },
  options: { suite?: string; params?: ProtocolParams } = {},
): PromptPlan {
  const suite = suiteOf(env, options.suite, task);
  const t = task as never;
  const params = options.params ?? env.conversation(suite.id, t);
  return suite.prompt({ manual: env.manual(t, episode.seed), observations: episode.observations, actions: episode.actions }, params);
}
