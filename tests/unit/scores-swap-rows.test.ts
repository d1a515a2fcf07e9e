import { describe, expect, it } from 'vitest';
import type { ScoreReport } from '../../runtime/scores/index.ts';
import { sameGroups, swapRows } from '../../src/scores/swapRows.ts';

// Only what swapRows reads: the groups and the tables' rows (the rest rides along).
const report = (tag: string, rows: number, groups = ['a', 'b', 'c']): ScoreReport =>
  ({
    tag,
    groups: groups.map((key) => ({ key, label: key })),
    smartplay: { games: tag, rows: Array.from({ length: rows }, (_, i) => `${tag}${i}`) },
    agentbench: null,
    agentboard: { rows: [`${tag}-board`] },
    plain: { suites: tag },
  }) as unknown as ScoreReport;
const rowsOf = (r: ScoreReport, key: 'smartplay' | 'agentboard') => (r[key] as unknown as { rows: string[] }).rows;

describe('swapping in a report of the same groups a slice of rows at a time', () => {
  it('goes row by row from the old figures to the new, ending with the new report and the old groups', async () => {
    const from = report('old', 5);
    const to = report('new', 5);
    const seen: ScoreReport[] = [];
    await swapRows(from, to, (r) => (seen.push(r), true));
    expect(seen.length).toBeGreaterThan(2);
    // Every step has all rows, new ones first, old ones after, never fewer new than before.
    let newRows = 0;
    for (const r of seen.slice(0, -1)) {
      const sp = rowsOf(r, 'smartplay');
      expect(sp).toHaveLength(5);
      const k = sp.filter((x) => x.startsWith('new')).length;
      expect(sp).toEqual([...rowsOf(to, 'smartplay').slice(0, k), ...rowsOf(from, 'smartplay').slice(k)]);
      expect(k).toBeGreaterThanOrEqual(newRows);
      newRows = k;
    }
    const last = seen[seen.length - 1];
    expect((last as unknown as { tag: string }).tag).toBe('new');
    expect(last.groups).toBe(from.groups);
    expect(rowsOf(last, 'agentboard')).toEqual(['new-board']);
  });

  it('stops when a newer computation takes over', async () => {
    let calls = 0;
    await swapRows(report('old', 40), report('new', 40), () => ++calls < 2);
    expect(calls).toBe(2);
  });

  it('tells the same groups from others', () => {
    expect(sameGroups(report('x', 1), report('y', 3))).toBe(true);
    expect(sameGroups(report('x', 1), report('y', 1, ['a', 'c', 'b']))).toBe(false);
    expect(sameGroups(report('x', 1), report('y', 1, ['a', 'b']))).toBe(false);
  });
});
