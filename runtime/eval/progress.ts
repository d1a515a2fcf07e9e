/**
 * A run's progress as text: done of total, episodes per second, the time left at that rate, and
 * infrastructure errors. A bar redrawn in place for a terminal, one line per episode otherwise
 * (a log file, CI). Pure: the caller passes the clock.
 */

export interface ProgressCounts {
  done: number;
  total: number;
  errors: number;
  /** Seconds since the run started. */
  elapsed: number;
}

/** "1:05", "12:00:03", "–" when unknown. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** Rate and time left from the counts ("2.31 ep/s · ETA 0:41 · 0 errors"). */
export function progressFigures({ done, total, errors, elapsed }: ProgressCounts): string {
  const rate = elapsed > 0 ? done / elapsed : 0;
  const eta = done >= total ? 0 : rate > 0 ? (total - done) / rate : NaN;
  return `${rate.toFixed(rate >= 10 ? 1 : 2)} ep/s · ETA ${formatDuration(eta)} · ${errors} error${errors === 1 ? '' : 's'}`;
}

/** The terminal's bar: "[########------------] 34/120 2.31 ep/s · ETA 0:41 · 0 errors". */
export function progressBar(counts: ProgressCounts, width = 24): string {
  const filled = counts.total > 0 ? Math.round((counts.done / counts.total) * width) : width;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts.done}/${counts.total} ${progressFigures(counts)}`;
}

/** A log line for one finished episode: "[34/120] hanoi hanoi-3 seed 4: Complete, score 3 · 2.31 ep/s · …". */
export function progressLine(counts: ProgressCounts, episode: string, what: string): string {
  return `[${counts.done}/${counts.total}] ${episode}: ${what} · ${progressFigures(counts)}`;
}
