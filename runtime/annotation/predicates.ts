/**
 * State predicates for subgoal matchers (schema.ts `predicate` kind): a table of named
 * tests on an environment's state, and an evaluator that answers them from the states of
 * a replayed episode ((task, seed, actions) replays exactly: envs/core/rng.ts). Replay each
 * stored episode once, keep its states, then re-score as often as needed.
 *
 * Each environment's table is in its annotation part (envs/<id>/annotation.ts; the
 * contract is envs/core/annotation.ts).
 */
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import type { PredicateEvaluator } from './matchers.ts';
import type { PredicateParams, PredicateDef, PredicateTable } from '../../envs/core/annotation.ts';

export type { PredicateParams, PredicateDef, PredicateTable };

/** The state after each action (states[t - 1] after step t), replaying through the environment. */
export async function replayStates<S, T extends TaskInfo>(env: EnvDefinition<S, T>, task: T, seed: number, actions: readonly string[]): Promise<S[]> {
  let state = (await env.reset(task, seed)).state;
  const states: S[] = [];
  for (const a of actions) {
    state = (await env.step(state, a)).state;
    states.push(state);
  }
  return states;
}

/**
 * An evaluator answering the table's predicates from each episode's states; null (the
 * matcher does not fire, and the report names it) when the predicate is not in the table
 * or the episode's states are unknown.
 */
export function stateEvaluator<S>(statesOf: (episodeId: string) => readonly S[] | undefined, table: PredicateTable<S>): PredicateEvaluator {
  return (m, at) => {
    const def = Object.hasOwn(table, m.name) ? table[m.name] : undefined;
    const state = statesOf(at.episode.id)?.[at.step - 1];
    if (!def || state === undefined) return null;
    return def.test(state, m.params);
  };
}

