/**
 * runtime/annotation without its built-in sets (builtin.ts carries AgentBoard's BabyAI and
 * PDDL data): what the annotation views import, so that data loads only when a task that
 * has a built-in set asks for it (lib/annotation.ts builtinSetFor).
 */
export * from '../../runtime/annotation/schema.ts';
export * from '../../runtime/annotation/episodes.ts';
export * from '../../runtime/annotation/matchers.ts';
export * from '../../runtime/annotation/score.ts';
export * from '../../runtime/annotation/propose.ts';
export * from '../../runtime/annotation/check.ts';
export * from '../../runtime/annotation/stats.ts';
export * from '../../runtime/annotation/agreement.ts';
export * from '../../runtime/annotation/alignment.ts';
export * from '../../runtime/annotation/rating.ts';
export * from '../../runtime/annotation/sets.ts';
export * from '../../runtime/annotation/agentboard-format.ts';
export * from '../../runtime/annotation/predicates.ts';
