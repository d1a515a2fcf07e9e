/**
 * One of the scores view's parsing workers: reads its byte range of an export file (whole lines,
 * cut by src/scores/filePool.ts) as its bytes arrive, and sends back its episodes, slim (readEpisodes.ts), or the
 * first bad line by its number within the range. The whole check of the lines sent back waits
 * for the pool to ask ('check'), so it never delays another range's episodes.
 */
import { LineError, readBlobLines, type ReadLines } from './readEpisodes.ts';
import type { FromParser, ToParser } from './filePool.ts';

const post = (m: FromParser, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);
/** The whole checks still to run, by job. */
const checks = new Map<number, ReadLines['rest']>();

self.onmessage = async (e: MessageEvent<ToParser>) => {
  const m = e.data;
  if (m.type === 'drop') {
    checks.delete(m.job);
    return;
  }
  if (m.type === 'check') {
    const rest = checks.get(m.job);
    checks.delete(m.job);
    const bad = rest?.() ?? null;
    post({ type: 'checked', job: m.job, bad: bad && { line: bad.line, message: bad.message } });
    return;
  }
  const { job, blob, first } = m;
  try {
    let named = 0;
    const { episodes, lines, buffers, rest } = await readBlobLines(blob, first, (bytes, envs) => {
      // The environments met so far, when there are new ones: the scores worker loads them meanwhile.
      const fresh = envs.size > named ? [...envs].slice(named) : undefined;
      named = envs.size;
      post({ type: 'progress', job, bytes, envs: fresh });
    });
    checks.set(job, rest);
    post({ type: 'done', job, episodes, lines }, buffers);
  } catch (err) {
    post({ type: 'failed', job, line: err instanceof LineError ? err.line : 0, message: err instanceof Error ? err.message : String(err) });
  }
};
