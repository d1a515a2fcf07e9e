/**
 * PDDL's state predicate: `goal-literal` {text} holds when the goal literal that
 * test.jsonl words as `text` is true in the state (AgentBoard's "match" progress,
 * ../README.md, Upstream; envs/core/README.md). The built-in PDDL sets use it (their subgoal texts are `literal`, envs/core/annotation.ts).
 */
import { TASKS, goalStatus, type PddlState } from '../index.ts';
import { GOAL_LITERAL, type PredicateTable } from '../../core/annotation.ts';

export const PDDL_PREDICATES: PredicateTable<PddlState> = {
  [GOAL_LITERAL]: {
    describe: 'the goal condition with this text holds',
    params: ['text'],
    test: (state, params) => {
      const text = String(params.text ?? '').trim();
      return goalStatus(TASKS[state.task], state).some((g) => g.met && g.text.trim() === text);
    },
  },
};
