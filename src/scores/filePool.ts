/**
 * Reads export files for the scores view in a pool of parsing workers (parse.worker.ts): each
 * file is cut at line ends into pieces, the pieces are parsed side by side (one worker per core,
 * up to four), and their episodes come back in file order. JSON.parse and the schema check are
 * most of a large file's reading time, and they split cleanly by line. A small file, or a
 * one-core machine, is read here without starting workers. Runs inside scores.worker.ts.
 */
import { LineError, readLines, type SlimEpisode } from './readEpisodes.ts';

export type ToParser = { job: number; blob: Blob; first: boolean };
export type FromParser =
  | { type: 'progress'; job: number; bytes: number }
  | { type: 'done'; job: number; episodes: SlimEpisode[]; lines: number }
  | { type: 'failed'; job: number; line: number; message: string };

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

const pool: Worker[] = [];
function workers(n: number): Worker[] {
  while (pool.length < n) pool.push(new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' }));
  return pool.slice(0, n);
}

type Piece = { file: number; blob: Blob; first: boolean };
type Parsed = { episodes: SlimEpisode[]; lines: number } | { line: number; message: string };

/** Pieces parsed here, one after another (small files, one core). */
async function parseHere(pieces: readonly Piece[], onBytes: (piece: number, bytes: number) => void): Promise<Parsed[]> {
  const out: Parsed[] = [];
  for (const [k, p] of pieces.entries()) {
    let text = await p.blob.text();
    if (p.first) text = text.replace(/^\uFEFF/, '');
    try {
      out.push(readLines(text, (chars) => onBytes(k, Math.round((chars / text.length) * p.blob.size))));
    } catch (e) {
      out.push({ line: e instanceof LineError ? e.line : 0, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/** Pieces parsed in the pool, each worker taking the next piece when it is free. */
function parseInPool(pieces: readonly Piece[], size: number, onBytes: (piece: number, bytes: number) => void): Promise<Parsed[]> {
  const out: Parsed[] = new Array(pieces.length);
  let next = 0;
  let left = pieces.length;
  return new Promise((resolve, reject) => {
    const team = workers(size);
    const give = (w: Worker) => {
      if (next >= pieces.length) return;
      const job = next++;
      w.postMessage({ job, blob: pieces[job].blob, first: pieces[job].first } satisfies ToParser);
    };
    for (const w of team) {
      w.onerror = (e) => reject(new Error(`A parsing worker failed: ${e.message}`));
      w.onmessage = (e: MessageEvent<FromParser>) => {
        const m = e.data;
        if (m.type === 'progress') return onBytes(m.job, m.bytes);
        onBytes(m.job, pieces[m.job].blob.size);
        out[m.job] = m.type === 'done' ? { episodes: m.episodes, lines: m.lines } : { line: m.line, message: m.message };
        if (--left === 0) resolve(out);
        else give(w);
      };
      give(w);
    }
  });
}

/**
 * The episodes of `files` in file and line order, each file's first bad line reported as
 * "NAME, line N: what is wrong". `onProgress` gets bytes read of all bytes.
 */
export async function readInPool(files: readonly { name: string; blob: Blob }[], onProgress: (bytes: number, total: number) => void): Promise<SlimEpisode[][]> {
  const cores = Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1));
  const pieces: Piece[] = [];
  for (const [file, { blob }] of files.entries()) {
    const parts = cores === 1 ? 1 : Math.min(cores * 2, Math.ceil(blob.size / PIECE_BYTES));
    const cuts = await lineCuts(blob, Math.max(1, parts));
    for (let k = 0; k + 1 < cuts.length; k++) pieces.push({ file, blob: blob.slice(cuts[k], cuts[k + 1]), first: k === 0 });
  }
  const total = files.reduce((a, f) => a + f.blob.size, 0);
  const bytes = new Float64Array(pieces.length);
  let shown = 0;
  const onBytes = (piece: number, b: number) => {
    bytes[piece] = b;
    const sum = bytes.reduce((a, x) => a + x, 0);
    if (sum - shown >= total / 50 || sum === total) onProgress((shown = sum), total);
  };
  const parsed = cores === 1 || pieces.length === 1 ? await parseHere(pieces, onBytes) : await parseInPool(pieces, Math.min(cores, pieces.length), onBytes);

  const out: SlimEpisode[][] = files.map(() => []);
  let lineBefore = 0;
  let file = -1;
  for (const [k, p] of parsed.entries()) {
    if (pieces[k].file !== file) {
      file = pieces[k].file;
      lineBefore = 0;
    }
    if ('message' in p) throw new Error(p.line ? `${files[file].name}, line ${lineBefore + p.line}: ${p.message}` : `${files[file].name}: ${p.message}`);
    for (const e of p.episodes) out[file].push(e); // not push(...): thousands of arguments overflow the stack
    lineBefore += p.lines;
  }
  return out;
}
