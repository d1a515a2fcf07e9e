/** The DB environment in the app: the SQL console, and its in-browser benchmark. */
import type { EnvUi } from '../core/ui.ts';
import { quantile } from '../core/stats.ts';
import { round2, roundTrips, timeResets } from '../core/benchSteps.ts';
import View from './ui/DbView.svelte';
import { loadDb } from './load.ts';

export const ui: EnvUi = {
  View,
  async browserBench() {
    const db = await loadDb();
    const ids = ['db-dev-003', 'db-dev-010', 'db-dev-020', 'db-dev-030', 'db-dev-045'];
    // Five episodes opened one after another right after the page loads, all kept open (a Watch batch starting).
    const first = await timeResets(db, ids.slice(0, 1));
    const rest = await timeResets(db, ids.slice(1));
    for (const s of [...first.states, ...rest.states]) db.dispose?.(s);
    // As a person meets it: the next task opens after the last one ended, in the warm worker it left.
    let warmMs = 0;
    for (const id of ids) {
      await new Promise((r) => setTimeout(r, 300));
      const one = await timeResets(db, [id]);
      warmMs += one.ms;
      for (const s of one.states) db.dispose?.(s);
    }
    const select = await roundTrips(db, 'db-dev-003', "Action: Operation\n```sql\nSELECT Floors FROM skyscrapers_in_Columbus WHERE Name = 'Capitol Square'\n```", 200);
    return {
      'db reset ms (back to back: five, the first starts a worker)': round2((first.ms + rest.ms * (ids.length - 1)) / ids.length),
      'db reset ms (back to back, the first: a worker started, sql.js compiled)': round2(first.ms),
      'db reset ms (a warm worker: the table only)': round2(warmMs / ids.length),
      'db statements/s': Math.round(1000 / (select.reduce((a, b) => a + b, 0) / select.length)),
      'db statement median ms': round2(quantile(select, 0.5)),
    };
  },
};
