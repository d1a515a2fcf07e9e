/**
 * The scores view's computing thread: reads the episodes (this browser's store, or files the
 * user picked), filters them and runs the scoring module, so 10,000 episodes never block the
 * page. Holds the loaded episodes between requests; every reply names its request id.
 */
import { parseExportFile, toJsonl } from '../../runtime/jsonl.ts';
import { detectLogKind, readLog } from '../../runtime/importers/index.ts';
import type { EpisodeRecord, StepRecord } from '../../runtime/records.ts';
import { computeScores, episodePoints, toCsv, type TaskInfoFn } from '../../runtime/scores/index.ts';
import { catalogueTaskInfo } from '../../runtime/taskInfo.ts';
import { excludedEpisodeIds } from '../../runtime/studies/clean.ts';
import { listExclusions } from '../studies/studyDb.ts';
import { openDatabase } from '../store/db.ts';
import type { FromWorker, Phase, ToWorker } from './protocol.ts';
import { facetsOf, matches } from './selection.ts';
import { registerEnv } from '../../envs/index.ts';
import extraEnvs from 'virtual:extra-envs';

// The same environments as the page (vite.config.ts extraEnvs), so their episodes score here too.
for (const line of extraEnvs) registerEnv(line);

let records: EpisodeRecord[] = [];
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

/** A benchmark's own log (AgentBoard logs/{task}.jsonl, AgentBench runs.jsonl) as export lines; an export as it is. */
async function asExport(text: string, name: string): Promise<string> {
  const kind = detectLogKind(text);
  if (kind !== 'agentboard' && kind !== 'agentbench') return text;
  try {
    return toJsonl((await readLog(text, name)).episodes);
  } catch (e) {
    throw new Error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Episodes from export files, each line checked as an import checks it (format, version 1
 * migration, schema). Read line by line: a file to score is not stored, so the import size
 * limit does not apply, and progress can be shown. The same episode twice counts once.
 */
function readFiles(id: number, files: { name: string; text: string }[]): { records: EpisodeRecord[]; duplicates: number } {
  const out: EpisodeRecord[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const lines = files.map((f) => f.text.replace(/^\uFEFF/, '').split('\n'));
  const total = lines.reduce((a, l) => a + l.length, 0);
  let done = 0;
  files.forEach((f, k) => {
    lines[k].forEach((raw, i) => {
      if (++done % 500 === 0) progress(id, 'parsing', done, total);
      if (raw.trim() === '') return;
      let record: EpisodeRecord | undefined;
      try {
        // An imported task file kept in an export (runtime/taskFiles.ts) is not an episode: passed by.
        [record] = parseExportFile(raw).episodes;
      } catch (e) {
        const message = e instanceof Error ? e.message.replace(/^Line \d+: /, '') : String(e);
        throw new Error(`${f.name}, line ${i + 1}: ${message}`);
      }
      if (!record) return;
      if (seen.has(record.header.id)) duplicates++;
      else {
        seen.add(record.header.id);
        out.push(record);
      }
    });
  });
  if (out.length === 0) throw new Error(`${files.map((f) => f.name).join(', ')}: no episodes.`);
  return { records: out, duplicates };
}

async function handle(m: ToWorker): Promise<void> {
  const t0 = performance.now();
  if (m.type === 'load') {
    let duplicates = 0;
    if (m.source === 'store') {
      records = await readStore(m.id);
      // The researcher's exclusions (studies) apply to what this browser stored.
      excluded = excludedEpisodeIds(records, await listExclusions());
    }
    else {
      progress(m.id, 'parsing', 0, 1);
      const texts = await Promise.all(m.files.map(async (f) => ({ name: f.name, text: await asExport(await f.text(), f.name) })));
      ({ records, duplicates } = readFiles(m.id, texts));
      excluded = new Set();
    }
    progress(m.id, 'loading environments', 0, 1);
    taskInfo = await catalogueTaskInfo(records);
    post({ type: 'loaded', id: m.id, facets: facetsOf(records), ms: performance.now() - t0, duplicates });
    return;
  }
  if (!taskInfo) throw new Error('No episodes loaded yet.');
  progress(m.id, 'scoring', 0, 1);
  const chosen = records.filter((r) => matches(r.header, m.filter));
  const options = { taskInfo, excluded, humanSource: m.humanSource, firstAttemptOnly: m.firstAttemptOnly, resamples: m.resamples, seed: m.seed };
  const report = computeScores(chosen, options);
  const points = episodePoints(chosen, options);
  post({ type: 'report', id: m.id, report, points, csv: toCsv(report), episodes: chosen.length, ms: performance.now() - t0 });
}

/**
 * One request at a time, in the order sent. Handled concurrently, a slow read of the store (the
 * page's first request) could finish after a file picked meanwhile had loaded, and replace its
 * episodes with the store's: the file then scored "0 chosen".
 */
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<ToWorker>) => {
  queue = queue.then(() => handle(e.data).catch((err) => post({ type: 'error', id: e.data.id, message: err instanceof Error ? err.message : String(err) })));
};
