/** AgentBoard's PDDL subgoal rows, version 1 of the 60 tasks (goal literals; GPL-2.0 data, see its README). */
import pddlRows from '../data/agentboard-pddl-test.json';

/** All 60 PDDL test.jsonl rows (task `pddl-<index>`). */
export function pddlBuiltinRows(): Record<string, unknown>[] {
  return pddlRows as Record<string, unknown>[];
}
