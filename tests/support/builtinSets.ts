/** AgentBoard's built-in subgoal sets of BabyAI and PDDL, synchronously, as builtinSetFor makes them from the environments' rows. */
import { babyaiBuiltinRow, babyaiBuiltinRows } from '../../envs/babyai/annotation/subgoals.ts';
import type { BabyAIRowText } from '../../envs/babyai/annotation/row-text.ts';
import { pddlBuiltinRows } from '../../envs/pddl/annotation/subgoals.ts';
import { annotation as babyaiAnnotation } from '../../envs/babyai/annotation.ts';
import { annotation as pddlAnnotation } from '../../envs/pddl/annotation.ts';
import { builtinFromRow } from '../../runtime/annotation/builtin.ts';
import type { SubgoalSet } from '../../runtime/annotation/schema.ts';

export const babyaiBuiltinSet = (index: number, text?: BabyAIRowText): SubgoalSet => builtinFromRow(babyaiBuiltinRow(index, text), babyaiAnnotation.subgoalText);

export const babyaiBuiltinSets = (text?: (index: number) => BabyAIRowText): SubgoalSet[] =>
  babyaiBuiltinRows(text).map((row) => builtinFromRow(row, babyaiAnnotation.subgoalText));

export const pddlBuiltinSets = (): SubgoalSet[] => pddlBuiltinRows().map((row) => builtinFromRow(row, pddlAnnotation.subgoalText));
