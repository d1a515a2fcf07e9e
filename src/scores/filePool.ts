/**
 * Reads export files for the scores view in a pool of parsing workers (parse.worker.ts): each
 * file is cut at line ends into pieces, the pieces are parsed side by side (one worker per core,
 * up to four), and their episodes come back in file order. JSON.parse and the schema check are
 * most of a large file's reading time, and they split cleanly by line. A small file, or a
 * one-core machine, is read here without starting workers. Runs inside scores.worker.ts. The
 * whole check of every field (readEpisodes.ts) comes after the episodes, so scoring need not wait for it.
 */
import { LineError, readBlobLines, type SlimEpisode } from './readEpisodes.ts';

export type ToParser = { type: 'read'; job: number; blob: Blob; first: boolean } | { type: 'check'; job: number } | { type: 'drop'; job: number };
export type FromParser =
  | { type: 'progress'; job: number; bytes: number; envs?: string[] }
  | { type: 'done'; job: number; episodes: SlimEpisode[]; lines: number }
  | { type: 'failed'; job: number; line: number; message: string }
  | { type: 'checked'; job: number; bad: Bad | null };

/** A bad line: its number within its piece (0: the piece as a whole) and what is wrong. */
type Bad = { line: number; message: string };

/** Below this a file is read in one piece (starting a worker costs more than it saves). */
const PIECE_BYTES = 4_000_000;
const MAX_WORKERS = 4;

/** Byte offsets cutting `blob` into about `parts` pieces of whole lines: piece k is [cuts[k], cuts[k + 1]). */
export async function lineCuts(blob: Blob, parts: number): Promise<number[]> {
  const cuts = [0];
  for (let k = 1; k < parts; k++) {
    let at = Math.max(Math.floor((blob.size * k) / parts), cuts[cuts.length - 1]);
    let cut = -1;
    while (at < blob.size && cut < 0) {
      const bytes = new Uint8Array(await blob.slice(at, at + 65_536).arrayBuffer());
      const i = bytes.indexOf(10); // '\n': never inside a multi-byte UTF-8 character
      if (i >= 0) cut = at + i + 1;
      at += bytes.length;
    }
    if (cut < 0 || cut >= blob.size) break;
    if (cut > cuts[cuts.length - 1]) cuts.push(cut);
  }
  cuts.push(blob.size);
  return cuts;
}

/** One parsing worker per core, up to four (1: the file is read in the calling worker). */
const poolSize = () => Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1));

/** How many pieces a file of `size` bytes is cut into for `cores` workers (two each, none under PIECE_BYTES). */
const piecesOf = (size: number, cores: number) => (cores === 1 ? 1 : Math.max(1, Math.min(cores * 2, Math.ceil(size / PIECE_BYTES))));

const pool: Worker[] = [];
/** Replies awaited from the pool, by job (jobs are numbered across loads: a late reply to an earlier load finds nothing). */
const waiting = new Map<number, (m: FromParser) => void>();
let jobs = 0;
function workers(n: number): Worker[] {
  while (pool.length < n) {
    const w = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<FromParser>) => waiting.get(e.data.job)?.(e.data);
    pool.push(w);
  }
  return pool.slice(0, n);
}

/**
 * Starts the parsing workers for files of these sizes now (their code loads while the caller
 * looks at the files' heads): a large file's pieces then start at once. Without sizes (files
 * about to be chosen, of sizes unknown yet), as many as a large file would use: starting them
 * and loading their code took 100–140 ms of a 10,000-episode file's time on screen.
 */
export function startParsers(sizes?: readonly number[]): void {
  const cores = poolSize();
  const pieces = sizes ? sizes.reduce((a, size) => a + piecesOf(size, cores), 0) : cores;
  if (cores > 1 && pieces > 1) workers(Math.min(cores, pieces));
}

type Piece = { file: number; blob: Blob; first: boolean };
/** A piece's progress: bytes read, and environments met (some or all of them, when there are new ones). */
type OnBytes = (piece: number, bytes: number, envs?: readonly string[]) => void;
/** A piece's episodes after the first pass, and the whole check of them to ask for (the first bad line, or null). */
type Read = { episodes: SlimEpisode[]; lines: number; check(): Promise<Bad | null>; drop(): void };
type Parsed = Read | Bad;

const badOf = (e: unknown): Bad => ({ line: e instanceof LineError ? e.line : 0, message: e instanceof Error ? e.message : String(e) });

/** Pieces parsed here, one after another (small files, one core). */
async function parseHere(pieces: readonly Piece[], onBytes: OnBytes): Promise<Parsed[]> {
  const out: Parsed[] = [];
  for (const [k, p] of pieces.entries()) {
    try {
      const { episodes, lines, rest } = await readBlobLines(p.blob, p.first, (bytes, envs) => onBytes(k, bytes, [...envs]));
      out.push({ episodes, lines, check: async () => rest(), drop: () => {} });
    } catch (e) {
      out.push(badOf(e));
    }
  }
  return out;
}

/** Pieces parsed in the pool, each worker taking the next piece when it is free; a piece's whole check runs in the worker that read it. */
function parseInPool(pieces: readonly Piece[], size: number, onBytes: OnBytes): Promise<Parsed[]> {
  const out: Parsed[] = new Array(pieces.length);
  const base = jobs;
  jobs += pieces.length;
  let next = 0;
  let left = pieces.length;
  return new Promise((resolve, reject) => {
    const team = workers(size);
    const give = (w: Worker) => {
      if (next >= pieces.length) return;
      const k = next++;
      const job = base + k;
      waiting.set(job, (m) => {
        if (m.type === 'progress') return onBytes(k, m.bytes, m.envs);
        if (m.type === 'checked') return;
        waiting.delete(job);
        onBytes(k, pieces[k].blob.size);
        out[k] = m.type === 'done' ? { episodes: m.episodes, lines: m.lines, check: () => ask(w, job), drop: () => w.postMessage({ type: 'drop', job } satisfies ToParser) } : { line: m.line, message: m.message };
        if (--left === 0) resolve(out);
        else give(w);
      });
      w.postMessage({ type: 'read', job, blob: pieces[k].blob, first: pieces[k].first } satisfies ToParser);
    };
    for (const w of team) {
      w.onerror = (e) => reject(new Error(`A parsing worker failed: ${e.message}`));
      give(w);
    }
  });
}

function ask(w: Worker, job: number): Promise<Bad | null> {
  return new Promise((resolve) => {
    waiting.set(job, (m) => {
      if (m.type !== 'checked') return;
      waiting.delete(job);
      resolve(m.bad);
    });
    w.postMessage({ type: 'check', job } satisfies ToParser);
  });
}

/** Files read by readInPool: their episodes after the first pass, and the whole check of every field. */
export interface PoolRead {
  /** Per file, in line order. */
  episodes: SlimEpisode[][];
  /** The whole check, started at the first call (it would slow what comes first): rejects with the first bad line as "NAME, line N: what is wrong". */
  check(): Promise<void>;
  /** Forget the check (a newer load replaced these episodes). */
  drop(): void;
}

/**
 * The episodes of `files` in file and line order after the first pass (readEpisodes.ts). A line
 * the first pass refuses rejects them, after the whole check of the pieces before it (so the
 * first bad line is named, as one pass would). `onProgress` gets bytes read of all bytes, and
 * `onEnvs` the environments named as they are met.
 */
export async function readInPool(files: readonly { name: string; blob: Blob }[], onProgress: (bytes: number, total: number) => void, onEnvs: (envs: readonly string[]) => void = () => {}): Promise<PoolRead> {
  const cores = poolSize();
  const pieces: Piece[] = [];
  for (const [file, { blob }] of files.entries()) {
    const cuts = await lineCuts(blob, piecesOf(blob.size, cores));
    for (let k = 0; k + 1 < cuts.length; k++) pieces.push({ file, blob: blob.slice(cuts[k], cuts[k + 1]), first: k === 0 });
  }
  const total = files.reduce((a, f) => a + f.blob.size, 0);
  const bytes = new Float64Array(pieces.length);
  let shown = 0;
  const onBytes: OnBytes = (piece, b, envs) => {
    if (envs?.length) onEnvs(envs);
    bytes[piece] = b;
    const sum = bytes.reduce((a, x) => a + x, 0);
    if (sum - shown >= total / 50 || sum === total) onProgress((shown = sum), total);
  };
  const parsed = cores === 1 || pieces.length === 1 ? await parseHere(pieces, onBytes) : await parseInPool(pieces, Math.min(cores, pieces.length), onBytes);

  // Each piece's first line's number in its file, less one.
  const before: number[] = [];
  let lines = 0;
  for (const [k, p] of parsed.entries()) {
    if (k === 0 || pieces[k].file !== pieces[k - 1].file) lines = 0;
    before.push(lines);
    if ('episodes' in p) lines += p.lines;
  }
  const where = (k: number, bad: Bad) => `${files[pieces[k].file].name}${bad.line ? `, line ${before[k] + bad.line}` : ''}: ${bad.message}`;
  /** The whole check of the pieces before `end`, asked of all at once: the first bad line, or null. */
  const firstBad = async (end: number): Promise<string | null> => {
    const asked = parsed.slice(0, end).map((p) => (p as Read).check());
    for (const [k, bad] of (await Promise.all(asked)).entries()) if (bad) return where(k, bad);
    return null;
  };
  const drop = (from: number) => {
    for (const p of parsed.slice(from)) if ('episodes' in p) p.drop();
  };

  const refused = parsed.findIndex((p) => !('episodes' in p));
  if (refused >= 0) {
    drop(refused + 1);
    throw new Error((await firstBad(refused)) ?? where(refused, parsed[refused] as Bad));
  }
  const out: SlimEpisode[][] = files.map(() => []);
  for (const [k, p] of parsed.entries()) for (const e of (p as Read).episodes) out[pieces[k].file].push(e); // not push(...): thousands of arguments overflow the stack
  let checked: Promise<void> | null = null;
  return {
    episodes: out,
    check: () =>
      (checked ??= firstBad(parsed.length).then((bad) => {
        if (bad) throw new Error(bad);
      })),
    drop: () => drop(0),
  };
}
