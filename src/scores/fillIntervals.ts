/**
 * The scores view's tables get their figures first and their intervals after (scores.worker.ts).
 * Swapping the whole report in at once redraws every figure in one task (hundreds of ms on
 * 10,000 episodes under load); this swaps in the rows with intervals a few at a time, a task
 * each, keeping the other rows' objects, so each step redraws only the rows it changes.
 */
import type { ScoreReport } from '../../runtime/scores/index.ts';
import { nextTask } from './nextTask.ts';

const TABLES = ['smartplay', 'agentbench', 'agentboard', 'plain'] as const;
const ROWS_A_STEP = 8;

type WithRows = { rows: unknown[] };
const rowsOf = (table: unknown): unknown[] | null => (table && typeof table === 'object' && Array.isArray((table as WithRows).rows) ? (table as WithRows).rows : null);

/**
 * Calls `show` with reports going from `quick` to `full`, a few rows more of `full` each time,
 * the last one `full` itself with `quick`'s groups (the same groups: the tables need not restart);
 * stops when `show` returns false (a newer computation took over).
 */
export async function fillIntervals(quick: ScoreReport, full: ScoreReport, show: (report: ScoreReport) => boolean): Promise<void> {
  let report = quick;
  for (const key of TABLES) {
    const table = full[key];
    const rows = rowsOf(table);
    const before = rowsOf(quick[key]) ?? [];
    for (let k = ROWS_A_STEP; ; k += ROWS_A_STEP) {
      const mixed = rows ? { ...table, rows: [...rows.slice(0, k), ...before.slice(k)] } : table;
      report = { ...report, [key]: mixed };
      if (!show(report)) return;
      await nextTask();
      if (!rows || k >= rows.length) break;
    }
  }
  show({ ...full, groups: quick.groups });
}
