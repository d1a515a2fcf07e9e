/**
 * AgentBoard's BabyAI subgoal rows, version 1 of the 112 tasks, from the data the project
 * ships (envs/babyai/data/agentboard-babyai-test.json: patterns, alternative lists; GPL-2.0,
 * see its README). The shipped data leaves out the row's `goal` (the raw minigrid mission)
 * and `init_obs` (the reset observation): row-text.ts regenerates both (~3 ms a problem),
 * which a byte-exact test.jsonl export needs.
 */
import babyaiRows from '../data/agentboard-babyai-test.json';
import type { BabyAIRowText } from './row-text.ts';

interface BabyAIDataRow {
  id: number;
  subtask: string;
  difficulty: string;
  subgoals: string[][];
  multi: boolean;
}

/** The test.jsonl row of BabyAI problem `index`, as far as the shipped data and `text` give it. */
function babyaiRow(d: BabyAIDataRow, text?: BabyAIRowText): Record<string, unknown> {
  const row: Record<string, unknown> = { id: d.id, task: 'babyai' };
  if (text) row.goal = text.goal;
  d.subgoals.forEach((l, j) => (row[j === 0 ? 'subgoals' : `subgoals_${j}`] = l));
  row.difficulty = d.difficulty;
  row.additional_info = text ? { init_obs: text.initObs, subtask: d.subtask } : { subtask: d.subtask };
  return row;
}

/** AgentBoard's row for BabyAI problem `index` (task `babyai-<index>`). */
export function babyaiBuiltinRow(index: number, text?: BabyAIRowText): Record<string, unknown> {
  const d = (babyaiRows as BabyAIDataRow[])[index];
  if (!d) throw new RangeError(`no BabyAI problem ${index}`);
  return babyaiRow(d, text);
}

/** All 112 BabyAI rows; `text(index)` supplies goal and init_obs (needed for a byte-exact test.jsonl). */
export function babyaiBuiltinRows(text?: (index: number) => BabyAIRowText): Record<string, unknown>[] {
  return (babyaiRows as BabyAIDataRow[]).map((d) => babyaiRow(d, text?.(d.id)));
}
