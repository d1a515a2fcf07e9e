/**
 * Small helpers shared by the SmartPlay conformance tests. Nothing here
 * re-implements game logic: expected values live in the tests, written from
 * upstream's source (each game's README, "Upstream").
 */
import type { EnvDefinition, Init, Step, TaskInfo } from '../../envs/core/types.ts';
import type { EpisodeOutput, HistoryEntry } from '../../envs/core/episode.ts';
import { playActions, startEpisode, whenIdle, type EpisodeActor } from '../../envs/core/runner.ts';
import { waitFor } from 'xstate';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The task with this id, failing loudly if it is missing. */
export function task<T extends TaskInfo>(env: EnvDefinition<any, T>, id: string): T {
  const found = env.tasks().find((t) => t.id === id);
  if (!found) throw new Error(`no task ${id} in ${env.id}`);
  return found;
}

/** reset() of a synchronous environment (throws if it returned a promise). */
export function resetSync<S, T extends TaskInfo>(env: EnvDefinition<S, T>, t: T, seed: number): Init<S> {
  const r = env.reset(t, seed);
  if (r instanceof Promise) throw new Error(`${env.id}.reset returned a promise`);
  return r;
}

/** step() of a synchronous environment (throws if it returned a promise). */
export function stepSync<S>(env: EnvDefinition<S, any>, state: S, text: string): Step<S> {
  const r = env.step(state, text);
  if (r instanceof Promise) throw new Error(`${env.id}.step returned a promise`);
  return r;
}

/** Play `actions` from a fresh reset, calling the environment directly. */
export function rollout<S, T extends TaskInfo>(env: EnvDefinition<S, T>, t: T, seed: number, actions: readonly string[]) {
  const init = resetSync(env, t, seed);
  let state = init.state;
  const steps: Step<S>[] = [];
  for (const a of actions) {
    const s = stepSync(env, state, a);
    steps.push(s);
    state = s.state;
  }
  return { init, steps, state };
}

/** Run a whole episode through the episode machine and return its final snapshot data. */
export async function playEpisode<S, T extends TaskInfo>(
  env: EnvDefinition<S, T>,
  t: T,
  actions: Iterable<string>,
  options: { seed: number; maxSteps?: number },
) {
  const actor = startEpisode(env, t, options);
  await playActions(actor, actions);
  const snapshot = await whenIdle(actor);
  return { actor, snapshot, context: snapshot.context, output: snapshot.output as EpisodeOutput | undefined };
}

/** Resolves when the actor has reached its final state. */
export function whenDone(actor: EpisodeActor) {
  return waitFor(actor, (s) => s.status === 'done', { timeout: 2000 });
}

/** History entries without the wall-clock `ms` field (everything else must be reproducible). */
export function withoutMs(history: readonly HistoryEntry[]): Omit<HistoryEntry, 'ms'>[] {
  return history.map(({ ms: _ms, ...rest }) => rest);
}

/** A tiny seeded generator (mulberry32) for the tests' own randomness, independent of envs/core/rng.ts. */
export function testRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The CLI (scripts/cli.ts) run to its end in a child process, with `input` on stdin. */
export function runCli(args: readonly string[], input = ''): { code: number | null; out: string; err: string } {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { cwd: root, input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
