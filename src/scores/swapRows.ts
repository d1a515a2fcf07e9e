/**
 * The scores view's tables change figures without changing groups: their intervals come after
 * their values (scores.worker.ts), and switching SmartPlay's human baseline changes every
 * normalised figure. Swapping the whole report in at once redraws every figure in one task
 * (60–100 ms on 10,000 episodes); this swaps in the new report's rows a slice a task, keeping the
 * other rows' objects, so each step redraws only the rows it changes, each slice sized by time.
 */
import { flushSync } from 'svelte';
import type { ScoreReport } from '../../runtime/scores/index.ts';
import { nextTask } from '../lib/nextTask.ts';
import { nextSliceSize } from '../lib/slices.ts';

const TABLES = ['smartplay', 'agentbench', 'agentboard', 'plain'] as const;

type WithRows = { rows: unknown[] };
const rowsOf = (table: unknown): unknown[] | null => (table && typeof table === 'object' && Array.isArray((table as WithRows).rows) ? (table as WithRows).rows : null);

/** Whether two reports have the same groups in the same order (their rows line up). */
export const sameGroups = (a: ScoreReport, b: ScoreReport): boolean => a.groups.length === b.groups.length && a.groups.every((g, i) => g.key === b.groups[i].key);

/**
 * Calls `show` with reports going from `from` to `to` (the same groups), a task each, a slice of
 * rows more of `to` each time, the last one `to` itself with `from`'s groups (the tables need not
 * restart); stops when `show` returns false (a newer computation took over).
 */
export async function swapRows(from: ScoreReport, to: ScoreReport, show: (report: ScoreReport) => boolean): Promise<void> {
  let report = from;
  let size = 2;
  for (const key of TABLES) {
    const table = to[key];
    const rows = rowsOf(table);
    const before = rowsOf(from[key]) ?? [];
    size = Math.max(1, size >> 1); // another table's rows may cost more
    // A table without rows (none, or the plain suites' list) changes in one step.
    const steps = rows ? rows.length : 1;
    for (let k = 0; k < steps; ) {
      await nextTask();
      k = Math.min(steps, k + size);
      const t0 = performance.now();
      report = { ...report, [key]: rows ? { ...table, rows: [...rows.slice(0, k), ...before.slice(k)] } : table };
      if (!show(report)) return;
      flushSync();
      size = nextSliceSize(size, performance.now() - t0);
    }
  }
  await nextTask();
  show({ ...to, groups: from.groups });
}
