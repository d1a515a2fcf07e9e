/**
 * The scores view's computing thread: reads the episodes (this browser's store, or files the
 * user picked, parsed in a pool of workers: filePool.ts), filters them and runs the scoring
 * module, so 10,000 episodes never block the page. Holds the loaded episodes between requests,
 * slim (the filter's header fields and the facts scoring reads); every reply names its request id.
 */
import { toJsonl } from '../../runtime/jsonl.ts';
import { detectLogKind, readLog } from '../../runtime/importers/index.ts';
import type { EpisodeRecord, StepRecord } from '../../runtime/records.ts';
import { scoreFactsInSteps, toCsv, type TaskInfoFn } from '../../runtime/scores/index.ts';
import { catalogueTaskInfo } from '../../runtime/taskInfo.ts';
import { excludedEpisodeIds } from '../../runtime/studies/clean.ts';
import { listExclusions } from '../studies/studyDb.ts';
import { openDatabase } from '../store/db.ts';
import type { FromWorker, Job, Phase, ToWorker } from './protocol.ts';
import { facetsOf, matches } from './selection.ts';
import { slimEpisode, type SlimEpisode } from './readEpisodes.ts';
import { readInPool, startParsers, type PoolRead } from './filePool.ts';
import { registerEnv } from '../../envs/index.ts';
import extraEnvs from 'virtual:extra-envs';

// The same environments as the page (vite.config.ts extraEnvs), so their episodes score here too.
for (const line of extraEnvs) registerEnv(line);

let records: SlimEpisode[] = [];
/** Loads so far, and the selection (load, filter, first attempts) whose points the page was sent last. */
let loads = 0;
let pointsSent: string | null = null;
/** The environments the first lines of the files name (a hint: loaded while the rest is parsed). */
async function envsNamedIn(files: readonly File[]): Promise<{ header: { env: string } }[]> {
  const heads = await Promise.all(files.map((f) => f.slice(0, 256_000).text()));
  const named = new Set(heads.flatMap((h) => [...h.matchAll(/"env"\s*:\s*"([^"\\]+)"/g)].map((x) => x[1])));
  return [...named].map((env) => ({ header: { env } }));
}
let taskInfo: TaskInfoFn | null = null;
/** Episode ids a researcher excluded (studies view), read with the store's episodes. */
let excluded = new Set<string>();

const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);
const progress = (id: number, phase: Phase, done: number, total: number) => post({ type: 'progress', id, phase, done, total });

/** Every stored episode with its steps, read in slices so the page can show how far it got. */
async function readStore(id: number): Promise<EpisodeRecord[]> {
  const db = await openDatabase();
  try {
    const headers = await db.getAll('episodes');
    const total = await db.count('steps');
    const byEpisode = new Map<string, StepRecord[]>();
    let last: [string, number] | null = null;
    let done = 0;
    progress(id, 'reading', 0, total);
    for (;;) {
      const slice: StepRecord[] = await db.getAll('steps', last ? IDBKeyRange.lowerBound(last, true) : undefined, 20_000);
      if (slice.length === 0) break;
      for (const s of slice) {
        const list = byEpisode.get(s.episodeId);
        if (list) list.push(s);
        else byEpisode.set(s.episodeId, [s]);
      }
      const end: StepRecord = slice[slice.length - 1];
      last = [end.episodeId, end.t];
      done += slice.length;
      progress(id, 'reading', done, total);
    }
    // Newest first, as the episodes list shows them; steps come keyed [episodeId, t], so already in order.
    headers.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
    return headers.map((header) => ({ header, steps: byEpisode.get(header.id) ?? [] }));
  } finally {
    db.close();
  }
}

/**
 * A benchmark's own log (AgentBoard logs/{task}.jsonl, AgentBench runs.jsonl) as export lines;
 * an export as it is. Told apart by the file's head (detectLogKind reads at most 200,000
 * characters: 800 kB hold them however they are encoded), so an export is never read whole here.
 */
async function asExport(file: File): Promise<Blob> {
  const kind = detectLogKind(await file.slice(0, 800_000).text());
  if (kind !== 'agentboard' && kind !== 'agentbench') return file;
  try {
    return new Blob([toJsonl((await readLog(await file.text(), file.name)).episodes)]);
  } catch (e) {
    throw new Error(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Episodes from export files, each line checked as an import checks it (format, version 1
 * migration, schema): the fields the filter and scoring read before the episodes come back, every
 * field when `check` is called (filePool.ts). A file to score is not stored, so the import size
 * limit does not apply, and progress can be shown. The same episode twice counts once. The
 * environments the episodes name load while the files are parsed.
 */
async function readFiles(id: number, files: File[]): Promise<{ records: SlimEpisode[]; duplicates: number; read: PoolRead }> {
  startParsers(files.map((f) => f.size));
  const blobs = await Promise.all(files.map(async (f) => ({ name: f.name, blob: await asExport(f) })));
  const loading = new Set<string>();
  const read = await readInPool(
    blobs,
    (done, total) => progress(id, 'parsing', done, total),
    (envs) => {
      const fresh = envs.filter((env) => !loading.has(env));
      for (const env of fresh) loading.add(env);
      if (fresh.length) catalogueTaskInfo(fresh.map((env) => ({ header: { env } }))).catch(() => {});
    },
  );
  const out: SlimEpisode[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const record of read.episodes.flat()) {
    if (seen.has(record.header.id)) duplicates++;
    else {
      seen.add(record.header.id);
      out.push(record);
    }
  }
  if (out.length === 0) {
    await read.check(); // a bad line is the clearer message
    throw new Error(`${files.map((f) => f.name).join(', ')}: no episodes.`);
  }
  return { records: out, duplicates, read };
}

/**
 * The loaded files' whole check (every field of every line), started once the first scores are
 * out: it would slow them. When it finds a bad line the page is told, and the file's episodes are
 * dropped.
 */
let unchecked: { id: number; t0: number; read: PoolRead } | null = null;
function startCheck(): void {
  if (!unchecked) return;
  const { id, t0, read } = unchecked;
  unchecked = null;
  const mine = records;
  read.check().then(
    () => post({ type: 'checked', id, ms: performance.now() - t0 }),
    (e: unknown) => {
      if (records === mine) {
        records = [];
        taskInfo = null;
      }
      post({ type: 'checked', id, ms: performance.now() - t0, problem: e instanceof Error ? e.message : String(e) });
    },
  );
}

async function handle(m: Job): Promise<void> {
  const t0 = performance.now();
  if (m.type === 'load') {
    loads++;
    let duplicates = 0;
    unchecked?.read.drop();
    unchecked = null;
    if (m.source === 'store') {
      const whole = await readStore(m.id);
      // The researcher's exclusions (studies) apply to what this browser stored.
      excluded = excludedEpisodeIds(whole, await listExclusions());
      records = whole.map(slimEpisode);
    } else {
      progress(m.id, 'parsing', 0, 1);
      // The environments the files' first lines name load while the files are parsed.
      const catalogue = catalogueTaskInfo(await envsNamedIn(m.files));
      const files = await readFiles(m.id, m.files);
      ({ records, duplicates } = files);
      await catalogue;
      excluded = new Set();
      unchecked = { id: m.id, t0, read: files.read };
    }
    progress(m.id, 'loading environments', 0, 1);
    taskInfo = await catalogueTaskInfo(records);
    post({ type: 'loaded', id: m.id, facets: facetsOf(records), ms: performance.now() - t0, duplicates });
    // The store's episodes were checked when they were stored.
    if (m.source === 'store') post({ type: 'checked', id: m.id, ms: performance.now() - t0 });
    return;
  }
  if (!taskInfo) throw new Error('No episodes loaded yet.');
  progress(m.id, 'scoring', 0, 1);
  const chosen = records.filter((r) => matches(r.header, m.filter));
  const options = { taskInfo, excluded, humanSource: m.humanSource, firstAttemptOnly: m.firstAttemptOnly, resamples: m.resamples, seed: m.seed };
  // The tables' values first (no bootstrap: a fraction of the time), then the charts' points,
  // then the report again with its intervals, which the page fills in.
  const steps = scoreFactsInSteps(chosen.map((r) => r.facts), options);
  post({ type: 'report', id: m.id, report: steps.quick, episodes: chosen.length, ms: performance.now() - t0 });
  // The points depend on the episodes chosen, not on the human baseline: chosen as before, the page keeps its own.
  const selection = JSON.stringify([loads, m.filter, m.firstAttemptOnly]);
  if (selection === pointsSent) post({ type: 'points', id: m.id, points: [], last: true, same: true });
  else {
    const SLICE = 2000;
    const points = steps.points();
    for (let i = 0; i === 0 || i < points.length; i += SLICE) post({ type: 'points', id: m.id, points: points.slice(i, i + SLICE), last: i + SLICE >= points.length });
    pointsSent = selection;
  }
  // The intervals wait for the page to draw the tables and charts: computed alongside, they took
  // the second core from the page's drawing (on two cores, 10,000 episodes: tables and charts
  // 1.49 → 1.37 s, the longest main-thread task 77 ms → under 50). A request sent meanwhile (the
  // filter changed) makes them moot.
  await drawnOnPage(m.id);
  if (newest > m.id) return;
  const report = steps.full();
  post({ type: 'intervals', id: m.id, report, csv: toCsv(report), ms: performance.now() - t0 });
}

/** The newest request's id: a compute request superseded before its intervals skips them. */
let newest = 0;

/**
 * The report waiting for the page to say it is drawn ('shown'). The wait begins in the same task
 * that posts the report, so the page's answer can only come after it.
 */
let shownWait: { id: number; resolve(): void } | null = null;
/** Longest the intervals wait for the page (a page that never says, e.g. its charts' code failed to load). */
const SHOWN_WAIT_MS = 3000;
/** Resolves when the page has drawn report `id`, a newer request has come, or SHOWN_WAIT_MS have passed. */
function drawnOnPage(id: number): Promise<void> {
  if (newest > id) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, SHOWN_WAIT_MS);
    function done() {
      clearTimeout(timer);
      shownWait = null;
      resolve();
    }
    shownWait = { id, resolve: done };
  });
}

/**
 * One request at a time, in the order sent. Handled concurrently, a slow read of the store (the
 * page's first request) could finish after a file picked meanwhile had loaded, and replace its
 * episodes with the store's: the file then scored "0 chosen".
 */
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'expect files') return startParsers();
  if (m.type === 'shown') {
    if (shownWait && shownWait.id <= m.id) shownWait.resolve();
    return;
  }
  newest = Math.max(newest, m.id);
  shownWait?.resolve(); // a newer request: the one waiting gives up its intervals
  queue = queue.then(async () => {
    await handle(m).catch((err) => post({ type: 'error', id: m.id, message: err instanceof Error ? err.message : String(err) }));
    // A loaded file's whole check waits for its first scores (and their intervals).
    if (m.type === 'compute') startCheck();
  });
};
