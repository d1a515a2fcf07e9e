/**
 * Built-in subgoal sets: AgentBoard's own sets are version 1 of their tasks (issue 13 §1).
 * Each environment that has them gives them through its catalogue line (`annotation`:
 * envs/babyai/annotation/, envs/pddl/annotation/); this file holds what they share.
 */
import { AGENTBOARD_AUTHOR, setFromAgentBoardRow } from './agentboard-format.ts';
import type { SubgoalSet } from './schema.ts';
import type { SubgoalText } from '../../envs/core/annotation.ts';

/** createdAt of the built-in sets: the date of the AgentBoard snapshot they come from (hkust-nlp/AgentBoard @ bb7255e). */
export const BUILTIN_CREATED_AT = '2024-04-23T00:00:00.000Z';

/** An AgentBoard test.jsonl row as version 1 of its task's subgoal set (its texts read as `subgoalText`). */
export function builtinFromRow(row: Record<string, unknown>, subgoalText: SubgoalText): SubgoalSet {
  const r = setFromAgentBoardRow(row, { subgoalText, author: AGENTBOARD_AUTHOR, version: 1, parentVersion: null, createdAt: BUILTIN_CREATED_AT });
  if (!r.ok) throw new Error(`built-in AgentBoard row ${String(row.task)} ${String(row.id)}: ${r.message}`);
  return r.value;
}
