/** PDDL for annotation: AgentBoard's subgoal rows (goal literals, credited by `match`) and the goal-literal predicate. */
import type { EnvAnnotation, PredicateTable } from '../core/annotation.ts';
import { PDDL_PREDICATES } from './annotation/predicates.ts';
import { pddlBuiltinRows } from './annotation/subgoals.ts';

export const annotation: EnvAnnotation = {
  subgoalText: 'literal',
  builtinRow: (taskId) => {
    const m = /^pddl-(\d+)$/.exec(taskId);
    return m ? (pddlBuiltinRows()[Number(m[1])] ?? null) : null;
  },
  predicates: PDDL_PREDICATES as PredicateTable<unknown>,
};
