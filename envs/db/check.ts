/**
 * AgentBench DB's checking and metrics (README.md, Upstream; `DBBench.metrics`), as pure functions.
 *
 * SELECT-type tasks: `ans = list(eval(answer))`, or `[answer]` when that raises; with one
 * predicted and one gold value, compare as floats when both parse, else as strings;
 * otherwise compare as sets. INSERT/UPDATE/DELETE tasks: the table hash after the episode
 * must equal `answer_md5` as a string.
 */
import { md5Hex } from './md5.ts';
import { pyEquals, pyFloat, pyList, pyLiteralEval, setEquals, type PyValue } from './pyeval.ts';

/** Whether a SELECT-type answer (the raw text after "Final Answer:") matches the gold labels. */
export function checkSelectAnswer(answer: string, labels: readonly string[]): boolean {
  const evaluated = pyLiteralEval(answer);
  const listed = evaluated === null ? null : pyList(evaluated);
  const ans: PyValue[] = listed ?? [{ t: 'str', v: answer }];
  const cor: PyValue[] = labels.map((v) => ({ t: 'str', v }));
  if (ans.length === 1 && cor.length === 1) {
    const a = pyFloat(ans[0]);
    const c = pyFloat(cor[0]);
    if (a !== null && c !== null) return a === c;
    return pyEquals(ans[0], cor[0]);
  }
  return setEquals(cor, ans) === true;
}

/** MySQL's group_concat_max_len default: the joined row hashes are cut to this many bytes. */
export const GROUP_CONCAT_MAX_LEN = 1024;

/**
 * Upstream's table hash query, evaluated in TypeScript over the rows read back:
 * per row MD5(CONCAT_WS(',', columns...)) (NULLs skipped), first 5 hex characters,
 * sorted, joined by ',' (cut at 1024 bytes), MD5 of that; printed as Python prints
 * MySQL's fetchall, `[('<hex>',)]`, or `[(None,)]` for an empty table.
 */
export function tableHashAnswer(rows: readonly (readonly (string | null)[])[]): string {
  if (rows.length === 0) return '[(None,)]';
  const rowHashes = rows.map((row) => md5Hex(row.filter((v): v is string => v !== null).join(',')).slice(0, 5));
  rowHashes.sort();
  const joined = rowHashes.join(',').slice(0, GROUP_CONCAT_MAX_LEN);
  return `[('${md5Hex(joined)}',)]`;
}

/** One finished sample for the metrics: its category (`type[0]`) and whether its check passed. */
export interface DbOutcome {
  category: string;
  correct: boolean;
}

export const DB_METRIC_CATEGORIES = [
  'other',
  'counting',
  'comparison',
  'ranking',
  'aggregation-SUM',
  'aggregation-MIN',
  'aggregation-MAX',
  'aggregation-AVG',
  'SELECT',
  'INSERT',
  'UPDATE',
] as const;

/**
 * Accuracy of one category as upstream counts it: "SELECT" takes every sample whose
 * category is not INSERT or UPDATE; an empty category scores 0 (upstream prints a warning).
 */
export function dbCategoryAccuracy(outcomes: readonly DbOutcome[], category: string): number {
  let total = 0;
  let correct = 0;
  for (const o of outcomes) {
    const member = category === 'SELECT' ? o.category !== 'INSERT' && o.category !== 'UPDATE' : o.category === category;
    if (!member) continue;
    total++;
    if (o.correct) correct++;
  }
  return total === 0 ? 0 : correct / total;
}

/** Upstream's main figure `overall_cat_accuracy`: the mean of SELECT, INSERT and UPDATE accuracy. */
export function dbOverallAccuracy(outcomes: readonly DbOutcome[]): number {
  return (
    (dbCategoryAccuracy(outcomes, 'SELECT') + dbCategoryAccuracy(outcomes, 'INSERT') + dbCategoryAccuracy(outcomes, 'UPDATE')) / 3
  );
}

/** Every metric upstream reports, keyed as upstream names them (`<category>_accuracy`, `overall_cat_accuracy`). */
export function dbMetrics(outcomes: readonly DbOutcome[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of DB_METRIC_CATEGORIES) out[`${c}_accuracy`] = dbCategoryAccuracy(outcomes, c);
  out.overall_cat_accuracy = dbOverallAccuracy(outcomes);
  return out;
}
