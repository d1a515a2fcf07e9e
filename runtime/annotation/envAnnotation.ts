/**
 * What an environment gives annotation, through its catalogue line (`annotation`, the
 * contract in envs/core/annotation.ts): its built-in subgoal set for a task (AgentBoard's
 * row, as version 1) and the state predicates subgoal matchers may name. Environments
 * without either simply have no such line.
 */
import { findEntry } from '../../envs/index.ts';
import type { EnvAnnotation, PredicateTable, SubgoalText } from '../../envs/core/annotation.ts';
import type { SubgoalSet } from './schema.ts';
import { builtinFromRow } from './builtin.ts';

export type { EnvAnnotation };

async function annotationOf(envId: string): Promise<EnvAnnotation | null> {
  try {
    return (await findEntry(envId).annotation?.()) ?? null;
  } catch {
    return null;
  }
}

/** The environment's built-in set for a task (version 1), or null. */
export async function builtinSetFor(envId: string, taskId: string): Promise<SubgoalSet | null> {
  const a = await annotationOf(envId);
  const row = a?.builtinRow?.(taskId);
  return a && row ? builtinFromRow(row, a.subgoalText) : null;
}

/** What the environment's AgentBoard subgoal texts are (patterns unless its annotation part says literals). */
export async function subgoalTextFor(envId: string): Promise<SubgoalText> {
  return (await annotationOf(envId))?.subgoalText ?? 'pattern';
}

/** The environment's state-predicate table, or null when it offers none. */
export async function predicateTableFor(envId: string): Promise<PredicateTable<unknown> | null> {
  return (await annotationOf(envId))?.predicates ?? null;
}
