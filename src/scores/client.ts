/** The scores view's side of the worker: one request at a time per kind, replies as promises, progress as a callback. */
import type { EpisodePoint } from '../../runtime/scores/index.ts';
import type { FromWorker, Job, Phase, ToWorker } from './protocol.ts';

type Reply<T extends FromWorker['type']> = Extract<FromWorker, { type: T }>;
/**
 * A report as the page gets it: the tables without intervals at once, the charts' points when all
 * have come, then the report with its intervals (never, if a newer request superseded it).
 */
export type ReportReply = Reply<'report'> & {
  points: Promise<EpisodePoint[]>;
  intervals: Promise<Reply<'intervals'>>;
  /** Tell the worker the tables and charts are drawn: the intervals are computed then (alongside they would slow the drawing). */
  shown(): void;
};
/** Loaded episodes as the page gets them: at once, with the whole check of every field still going on (it rejects with the first bad line). */
export type LoadedReply = Reply<'loaded'> & { checked: Promise<Reply<'checked'>> };
// Distributive Omit, so each message variant keeps its own fields.
type Request = Job extends infer M ? (M extends Job ? Omit<M, 'id'> : never) : never;

export interface ScoresWorker {
  load(req: Extract<Request, { type: 'load' }>): Promise<LoadedReply>;
  compute(req: Extract<Request, { type: 'compute' }>): Promise<ReportReply>;
  /** A file is about to be chosen: the worker starts its file readers now (no reply). */
  expectFiles(): void;
  terminate(): void;
}

export function scoresWorker(onProgress: (phase: Phase, done: number, total: number) => void): ScoresWorker {
  const worker = new Worker(new URL('./scores.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve(m: FromWorker): void; reject(e: Error): void }>();
  /** Points still arriving for a report already given to the page. */
  const points = new Map<number, { list: EpisodePoint[]; resolve(p: EpisodePoint[]): void; reject(e: Error): void }>();
  /** Whole checks still going on for episodes already given to the page. */
  const checks = new Map<number, { resolve(m: Reply<'checked'>): void; reject(e: Error): void }>();
  /** Intervals still being computed for a report already given to the page. */
  const intervals = new Map<number, { resolve(m: Reply<'intervals'>): void; reject(e: Error): void }>();
  /** The points last received whole: a report whose points are the same ('same') gets this very array. */
  let lastPoints: EpisodePoint[] = [];
  let next = 1;
  worker.onmessage = (e: MessageEvent<FromWorker>) => {
    const m = e.data;
    if (m.type === 'points') {
      const q = points.get(m.id);
      if (!q) return;
      for (const x of m.points) q.list.push(x);
      if (m.last) {
        points.delete(m.id);
        if (!m.same) lastPoints = q.list;
        q.resolve(lastPoints);
      }
      return;
    }
    if (m.type === 'checked') {
      const c = checks.get(m.id);
      checks.delete(m.id);
      if (m.problem === undefined) c?.resolve(m);
      else c?.reject(new Error(m.problem));
      return;
    }
    const waiting = intervals.get(m.id);
    if (waiting && (m.type === 'intervals' || m.type === 'error')) {
      intervals.delete(m.id);
      if (m.type === 'intervals') waiting.resolve(m);
      else waiting.reject(new Error(m.message));
      return;
    }
    const p = pending.get(m.id);
    if (!p) return; // a request superseded by a newer one
    if (m.type === 'progress') return onProgress(m.phase, m.done, m.total);
    pending.delete(m.id);
    if (m.type === 'error') p.reject(new Error(m.message));
    else if (m.type === 'report') {
      const list: EpisodePoint[] = [];
      const reply: ReportReply = {
        ...m,
        points: new Promise((resolve, reject) => points.set(m.id, { list, resolve, reject })),
        intervals: new Promise((resolve, reject) => intervals.set(m.id, { resolve, reject })),
        shown: () => worker.postMessage({ type: 'shown', id: m.id } satisfies ToWorker),
      };
      p.resolve(reply);
    } else if (m.type === 'loaded') {
      const reply: LoadedReply = { ...m, checked: new Promise((resolve, reject) => checks.set(m.id, { resolve, reject })) };
      p.resolve(reply);
    } else p.resolve(m);
  };
  worker.onerror = (e) => {
    for (const p of [...pending.values(), ...points.values(), ...intervals.values(), ...checks.values()]) p.reject(new Error(`The scoring worker failed: ${e.message}`));
    checks.clear();
    pending.clear();
    points.clear();
    intervals.clear();
  };
  function send<T extends FromWorker['type']>(req: Request): Promise<Reply<T>> {
    const id = next++;
    // Older reports' intervals will not come (the worker skips a superseded request's).
    intervals.clear();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (m: FromWorker) => void, reject });
      worker.postMessage({ ...req, id } as Job);
    });
  }
  return {
    load: (req) => send<'loaded'>(req) as Promise<LoadedReply>,
    compute: (req) => send<'report'>(req) as Promise<ReportReply>,
    expectFiles: () => worker.postMessage({ type: 'expect files' } satisfies ToWorker),
    terminate: () => worker.terminate(),
  };
}
