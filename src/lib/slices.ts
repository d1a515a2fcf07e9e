/**
 * Drawing a large view a slice a task, each slice sized by time rather than by count: the same
 * count of rows costs a few ms on a quiet desktop and five times that on a busy two-core laptop,
 * and a task over 50 ms is one a person can feel (a click or a key waits for it).
 */

/** What a slice's drawing should take (its layout and paint come after, in their own task). */
export const SLICE_MS = 12;

/**
 * The next slice's size from the last one's: `size` units took `tookMs`, so about
 * SLICE_MS / (tookMs / size) units fit; it grows at most twofold a step (one quick slice,
 * e.g. of cheap rows, says little of the next) and is never below `min`.
 */
export function nextSliceSize(size: number, tookMs: number, min = 1): number {
  const fits = (size * SLICE_MS) / Math.max(tookMs, 0.25);
  return Math.max(min, Math.floor(Math.min(size * 2, fits)));
}

/** Parts of a view in page order, each a list of rows with a cost each (e.g. the figures it shows). */
export type Parts = ReadonlyMap<string, readonly number[]>;

/** How much of each part to show when `spent` cost units of the view are drawn. */
export interface Revealed {
  /** Rows shown of each part. */
  rows(part: string): number;
  /** Whether a part has begun (its heading drawn). */
  open(part: string): boolean;
  /** Cost of the whole view. */
  total: number;
}

/**
 * The parts' rows shown when `spent` units are drawn, parts in order: a part's heading costs
 * `head`, then its rows one after another. A row is shown once the units before it are spent.
 */
export function reveal(parts: Parts, spent: number, head = 10): Revealed {
  const rows = new Map<string, number>();
  const open = new Set<string>();
  let at = 0;
  for (const [name, costs] of parts) {
    if (at < spent) open.add(name);
    at += head;
    let n = 0;
    for (const c of costs) {
      if (at < spent) n++;
      at += c;
    }
    rows.set(name, n);
  }
  return { rows: (part) => rows.get(part) ?? 0, open: (part) => open.has(part), total: at };
}
