/** Messages between the scores view and its Web Worker (scores.worker.ts). */
import type { EpisodePoint, HumanSource, ScoreReport } from '../../runtime/scores/index.ts';
import type { EpisodeFilter, Facets } from './selection.ts';

export type ToWorker =
  | { type: 'load'; id: number; source: 'store' }
  // File objects: the worker reads them, so a large file's text is never decoded on the page.
  | { type: 'load'; id: number; source: 'files'; files: File[] }
  | { type: 'compute'; id: number; filter: EpisodeFilter; humanSource: HumanSource; firstAttemptOnly: boolean; resamples: number; seed: number };

export type Phase = 'reading' | 'parsing' | 'loading environments' | 'scoring';

export type FromWorker =
  | { type: 'progress'; id: number; phase: Phase; done: number; total: number }
  | { type: 'loaded'; id: number; facets: Facets; ms: number; duplicates: number }
  // The tables' report first; the charts' points (one per episode) follow in slices, so no single
  // message takes the page long to receive.
  | { type: 'report'; id: number; report: ScoreReport; csv: string; episodes: number; ms: number }
  | { type: 'points'; id: number; points: EpisodePoint[]; last: boolean }
  | { type: 'error'; id: number; message: string };
