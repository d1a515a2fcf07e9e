/** BabyAI for annotation: AgentBoard's subgoal rows (observation patterns) and the state predicates ("carrying", "facing"). */
import type { EnvAnnotation, PredicateTable } from '../core/annotation.ts';
import { BABYAI_PREDICATES } from './annotation/predicates.ts';
import { babyaiBuiltinRow } from './annotation/subgoals.ts';
import { babyaiRowText } from './annotation/row-text.ts';

export const annotation: EnvAnnotation = {
  subgoalText: 'pattern',
  builtinRow: (taskId) => {
    const m = /^babyai-(\d+)$/.exec(taskId);
    // With the row's goal and init_obs (regenerated, ~3 ms), so its test.jsonl export is AgentBoard's row byte for byte.
    return m && Number(m[1]) < 112 ? babyaiBuiltinRow(Number(m[1]), babyaiRowText(Number(m[1]))) : null;
  },
  predicates: BABYAI_PREDICATES as PredicateTable<unknown>,
};
