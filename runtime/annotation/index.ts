/**
 * Subgoal annotation, the pure core (issue 13): subgoal sets as data, matchers, live
 * re-scoring, agreement and rating-study statistics, and the file formats. No DOM, no
 * Svelte; the app and the CLI build on this. Not re-exported, because each loads a whole
 * environment: each environment's own sets and predicate tables are in its folder
 * (envs/<id>/annotation.ts), reached through envAnnotation.ts.
 */
export * from './schema.ts';
export * from './episodes.ts';
export * from './matchers.ts';
export * from './score.ts';
export * from './propose.ts';
export * from './check.ts';
export * from './stats.ts';
export * from './agreement.ts';
export * from './alignment.ts';
export * from './rating.ts';
export * from './sets.ts';
export * from './agentboard-format.ts';
export * from './builtin.ts';
export * from './predicates.ts';
export { matchStyle, patternPieces } from '../../envs/core/subgoals.ts';
