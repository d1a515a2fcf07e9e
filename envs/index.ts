/**
 * The catalogue of environments: one line each. An entry's metadata is tiny and always
 * loaded; the environment's code and data (`load`), its views (`ui`, browser only) and
 * its benchmark (`bench`) load on demand, so the page's initial JavaScript stays small.
 * Adding an environment = its folder under envs/ and one line here (see README).
 */
import type { EnvBench, EnvDefinition, EnvMeta, TaskInfo } from './core/types.ts';
import type { EnvUi } from './core/ui.ts';
import type { EnvNode } from './core/envNode.ts';
import type { EnvAnnotation } from './core/annotation.ts';
import type { EnvLogs } from './core/logs.ts';
import type { Plugin } from 'vite';
import { hanoiMeta } from './hanoi/meta.ts';
import { banditsMeta } from './bandits/meta.ts';
import { rpsMeta } from './rps/meta.ts';
import { babyaiMeta } from './babyai/meta.ts';
import { osMeta } from './os/meta.ts';
import { dbMeta } from './db/meta.ts';
import { pddlMeta } from './pddl/meta.ts';
import { messengerMeta } from './messenger/meta.ts';
import { alfworldMeta } from './alfworld/meta.ts';
import { crafterMeta } from './crafter/meta.ts';
import { openingOs } from './os/opening.ts';

export interface EnvEntry extends EnvMeta {
  load(): Promise<EnvDefinition>;
  ui(): Promise<EnvUi>;
  bench?(): Promise<EnvBench>;
  /** Built-in subgoal sets and state predicates for annotation (envs/core/annotation.ts). */
  annotation?(): Promise<EnvAnnotation>;
  /**
   * Its progress follows AgentBoard's subgoal rules: only executed actions are credited
   * (runtime/annotation/episodes.ts agentboardCredited).
   */
  agentboardSubgoals?: boolean;
  /** How its benchmark's own logs name it and its tasks, for the log importers (envs/core/logs.ts). */
  logs?(): Promise<EnvLogs>;
  /** A page opened on one of its tasks (a Play link): starts what its first episode will need, before the view asks. */
  opening?(): void;
  /** Its Node side (CLI, benchmarks: backends, worker threads), loaded with `nodeOnly`. */
  node?(): Promise<EnvNode>;
  /** Its part of vite's dev and preview servers (vite.config.ts collects them), loaded with `nodeOnly`. */
  vitePlugins?(): Promise<Plugin[]>;
}

/**
 * Import a Node-only module (path relative to this file): the specifier is not a literal, so the
 * app's build neither follows nor bundles it (the app never calls it).
 */
const nodeOnly = <M>(path: string): Promise<M> => import(/* @vite-ignore */ path);

export const CATALOGUE: readonly EnvEntry[] = [
  { ...hanoiMeta, load: () => import('./hanoi/index.ts').then((m) => m.hanoi), ui: () => import('./hanoi/ui.ts').then((m) => m.ui) },
  { ...banditsMeta, load: () => import('./bandits/index.ts').then((m) => m.bandits), ui: () => import('./bandits/ui.ts').then((m) => m.ui) },
  { ...rpsMeta, load: () => import('./rps/index.ts').then((m) => m.rps), ui: () => import('./rps/ui.ts').then((m) => m.ui) },
  { ...messengerMeta, load: () => import('./messenger/index.ts').then((m) => m.messenger), ui: () => import('./messenger/ui.ts').then((m) => m.ui), bench: () => import('./messenger/bench.ts').then((m) => m.bench) },
  { ...babyaiMeta, load: () => import('./babyai/index.ts').then((m) => m.babyai), ui: () => import('./babyai/ui.ts').then((m) => m.ui), bench: () => import('./babyai/bench.ts').then((m) => m.bench), annotation: () => import('./babyai/annotation.ts').then((m) => m.annotation), agentboardSubgoals: true, logs: () => import('./babyai/logs.ts').then((m) => m.logs) },
  { ...pddlMeta, load: () => import('./pddl/index.ts').then((m) => m.pddl), ui: () => import('./pddl/ui.ts').then((m) => m.ui), bench: () => import('./pddl/bench.ts').then((m) => m.bench), annotation: () => import('./pddl/annotation.ts').then((m) => m.annotation), agentboardSubgoals: true, logs: () => import('./pddl/logs.ts').then((m) => m.logs) },
  { ...osMeta, load: () => import('./os/index.ts').then((m) => m.os), ui: () => import('./os/ui.ts').then((m) => m.ui), bench: () => import('./os/bench.ts').then((m) => m.bench), node: () => nodeOnly<typeof import('./os/node.ts')>('./os/node.ts').then((m) => m.node), vitePlugins: () => nodeOnly<typeof import('./os/vite.ts')>('./os/vite.ts').then((m) => m.vitePlugins()), logs: () => import('./os/logs.ts').then((m) => m.logs), opening: openingOs },
  { ...crafterMeta, load: () => import('./crafter/index.ts').then((m) => m.crafter), ui: () => import('./crafter/ui.ts').then((m) => m.ui), bench: () => import('./crafter/bench.ts').then((m) => m.bench) },
  { ...alfworldMeta, load: () => import('./alfworld/index.ts').then((m) => m.alfworld), ui: () => import('./alfworld/ui.ts').then((m) => m.ui), bench: () => import('./alfworld/bench.ts').then((m) => m.bench) },
  { ...dbMeta, load: () => import('./db/load.ts').then((m) => m.loadDb()), ui: () => import('./db/ui.ts').then((m) => m.ui), bench: () => import('./db/bench.ts').then((m) => m.bench), node: () => nodeOnly<typeof import('./db/node.ts')>('./db/node.ts').then((m) => m.node), logs: () => import('./db/logs.ts').then((m) => m.logs) },
];

/** Environments added at run time (a test's own environment, a user's plugin): the same kind of line. */
const extra: EnvEntry[] = [];

export function registerEnv(entry: EnvEntry): void {
  if (entries().some((e) => e.id === entry.id)) throw new Error(`An environment with id "${entry.id}" is already in the catalogue.`);
  extra.push(entry);
}

/** Every entry: the built-in catalogue, then registered ones. */
export function entries(): readonly EnvEntry[] {
  return extra.length === 0 ? CATALOGUE : [...CATALOGUE, ...extra];
}

export function envIds(): string[] {
  return entries().map((e) => e.id);
}

export function findEntry(id: string): EnvEntry {
  const entry = entries().find((e) => e.id === id);
  if (!entry) throw new Error(`Unknown environment "${id}". Known: ${envIds().join(', ')}.`);
  return entry;
}

/** Load an environment's definition by id (rejects with a clear message for an unknown id). */
export async function loadEnv(id: string): Promise<EnvDefinition> {
  return findEntry(id).load();
}

/** Every environment, loaded (CLI, benchmarks, tests). */
export function loadAll(): Promise<EnvDefinition[]> {
  return Promise.all(entries().map((e) => e.load()));
}

export function getTask(env: EnvDefinition, taskId: string): TaskInfo {
  const tasks = env.tasks();
  const task = tasks.find((t) => t.id === taskId || t.name === taskId) ?? env.resolveTask?.(taskId);
  if (!task) {
    const ids = tasks.map((t) => t.id);
    const known = ids.length <= 12 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} … ${ids.at(-1)} (${ids.length} tasks)`;
    throw new Error(`Unknown task "${taskId}" for ${env.id}. Known: ${known}.`);
  }
  return task;
}
