/** Messages between the scores view and its Web Worker (scores.worker.ts). */
import type { EpisodePoint, HumanSource, ScoreReport } from '../../runtime/scores/index.ts';
import type { EpisodeFilter, Facets } from './selection.ts';

/** A request the worker answers, by its id, one at a time in the order sent. */
export type Job =
  | { type: 'load'; id: number; source: 'store' }
  // File objects: the worker reads them, so a large file's text is never decoded on the page.
  | { type: 'load'; id: number; source: 'files'; files: File[] }
  | { type: 'compute'; id: number; filter: EpisodeFilter; humanSource: HumanSource; firstAttemptOnly: boolean; resamples: number; seed: number };

export type ToWorker =
  | Job
  // A file is about to be chosen (the pointer or focus on the file button): the parsing workers start, so they are ready when it is.
  | { type: 'expect files' }
  // The page has drawn a report's tables and charts: its intervals may be computed now.
  | { type: 'shown'; id: number };

export type Phase = 'reading' | 'parsing' | 'loading environments' | 'scoring';

export type FromWorker =
  | { type: 'progress'; id: number; phase: Phase; done: number; total: number }
  | { type: 'loaded'; id: number; facets: Facets; ms: number; duplicates: number }
  // Files only, after 'loaded': every field of every line checked (ms since the load began), or the first bad line.
  | { type: 'checked'; id: number; ms: number; problem?: string }
  // The tables' report first, without intervals (settings.resamples 0); the charts' points (one per
  // episode) follow in slices, so no single message takes the page long to receive; then, once the
  // page says it has drawn them ('shown'), the report with its intervals (and the CSV of all figures).
  | { type: 'report'; id: number; report: ScoreReport; episodes: number; ms: number }
  // same: the points of the report before (the same episodes chosen; only the human baseline changed), sent once, empty.
  | { type: 'points'; id: number; points: EpisodePoint[]; last: boolean; same?: true }
  | { type: 'intervals'; id: number; report: ScoreReport; csv: string; ms: number }
  | { type: 'error'; id: number; message: string };
