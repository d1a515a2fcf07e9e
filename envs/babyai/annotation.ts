/** BabyAI for annotation: AgentBoard's subgoal rows (observation patterns) and the state predicates ("carrying", "facing"). */
import type { EnvAnnotation, PredicateTable } from '../core/annotation.ts';
import { BABYAI_PREDICATES } from './annotation/predicates.ts';
import { babyaiBuiltinRow } from './annotation/subgoals.ts';

export const annotation: EnvAnnotation = {
  subgoalText: 'pattern',
  builtinRow: (taskId) => {
    const m = /^babyai-(\d+)$/.exec(taskId);
    return m && Number(m[1]) < 112 ? babyaiBuiltinRow(Number(m[1])) : null;
  },
  predicates: BABYAI_PREDICATES as PredicateTable<unknown>,
};
