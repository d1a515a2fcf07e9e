/**
 * What an environment gives subgoal annotation, through its catalogue line (`annotation`,
 * envs/<id>/annotation.ts): AgentBoard's own subgoal rows for its tasks, how those rows'
 * subgoal texts are credited, and the state predicates matchers may name. The annotation
 * runtime (runtime/annotation/) turns rows into subgoal sets and evaluates predicates.
 */

export type PredicateParams = Readonly<Record<string, string | number | boolean | null>>;

export interface PredicateDef<S> {
  /** What it means, for the authoring UI. */
  describe: string;
  /** Parameter names it reads. */
  params: readonly string[];
  test: (state: S, params: PredicateParams) => boolean;
}

/** Named tests on an environment's state, for `predicate` matchers. */
export type PredicateTable<S> = Readonly<Record<string, PredicateDef<S>>>;

/**
 * The predicate a `literal` subgoal text becomes: params { text } = the goal literal as the
 * row words it; an environment whose subgoals are literals offers it in its table.
 */
export const GOAL_LITERAL = 'goal-literal';

/**
 * How an AgentBoard row's subgoal texts are credited: `pattern` texts are matched against
 * the observation (AgentBoard's subgoal crediting, envs/core/subgoals.ts); `literal` texts
 * are goal literals that hold or not in the state (AgentBoard's "match" progress).
 */
export type SubgoalText = 'pattern' | 'literal';

export interface EnvAnnotation {
  /** How this environment's AgentBoard subgoal texts are credited. */
  subgoalText: SubgoalText;
  /** AgentBoard's test.jsonl row for a task (its built-in subgoal set, version 1), or null. */
  builtinRow?(taskId: string): Record<string, unknown> | null;
  predicates?: PredicateTable<unknown>;
}
