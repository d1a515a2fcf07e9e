/**
 * Headless play: run an episode machine from a stream of action texts. Used by
 * the CLI, the benchmarks, tests and the app's resume (replaying recorded actions).
 */
import { waitFor } from 'xstate';
import { createEpisode, type ActFacts, type EpisodeActor, type EpisodeOptions, type HistoryEntry } from './episode.ts';
import type { EnvDefinition, TaskInfo } from './types.ts';

export type { EpisodeActor, EpisodeSnapshot } from './episode.ts';

/** Who plays a list of texts when the caller does not say: a script. */
const SCRIPT: ActFacts = { actor: { kind: 'script', name: 'script' } };

export function startEpisode<S, T extends TaskInfo>(env: EnvDefinition<S, T>, task: T, options: EpisodeOptions): EpisodeActor {
  const actor = createEpisode(env, task, options);
  actor.start();
  return actor;
}

/**
 * Stop an episode and, when it ended unfinished (a person left the page, a take-over replaced it),
 * release what its environment state holds (an OS shell's worker): a finished episode's final
 * state already did; a stopped actor runs no further actions.
 */
export function stopEpisode(actor: EpisodeActor): void {
  const snapshot = actor.getSnapshot();
  actor.stop();
  if (snapshot.status !== 'done' && snapshot.context.state !== undefined) snapshot.context.env.dispose?.(snapshot.context.state);
}

/** Resolves once the episode can take an action (or has ended). */
export function whenIdle(actor: EpisodeActor) {
  return waitFor(actor, (s) => s.status !== 'active' || s.matches('awaitingAction'));
}

/**
 * Send each action as ACT and wait for its step; stops early when the episode ends.
 * `onStep` sees each new history entry as it happens; `facts` say who acts (and how).
 */
export async function playActions(
  actor: EpisodeActor,
  actions: Iterable<string> | AsyncIterable<string>,
  onStep?: (entry: HistoryEntry) => void,
  facts: ActFacts = SCRIPT,
): Promise<void> {
  let snapshot = await whenIdle(actor);
  for await (const text of actions) {
    if (snapshot.status !== 'active') break;
    const before = snapshot.context.history.length;
    actor.send({ type: 'ACT', text, ...facts });
    snapshot = await whenIdle(actor);
    const history = snapshot.context.history;
    if (history.length > before) onStep?.(history[history.length - 1]);
  }
}

/**
 * Re-run a synchronous environment from its seed over recorded actions and
 * return the state before the first step and after each one (for replay views).
 * Returns null for asynchronous environments, whose states are not re-derived.
 */
export function simulate<S, T extends TaskInfo>(env: EnvDefinition<S, T>, task: T, seed: number, actions: readonly string[]): S[] | null {
  if (env.asyncStep === true) return null;
  const init = env.reset(task, seed);
  const states: S[] = [init.state];
  let state = init.state;
  for (const text of actions) {
    state = env.step(state, text).state;
    states.push(state);
  }
  return states;
}
