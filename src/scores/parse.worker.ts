/**
 * One of the scores view's parsing workers: reads its byte range of an export file (whole lines,
 * cut by src/scores/filePool.ts) and sends back its episodes, slim (readEpisodes.ts), or the
 * first bad line by its number within the range.
 */
import { LineError, readLines } from './readEpisodes.ts';
import type { FromParser, ToParser } from './filePool.ts';

const post = (m: FromParser) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<ToParser>) => {
  const { job, blob, first } = e.data;
  try {
    let text = await blob.text();
    if (first) text = text.replace(/^\uFEFF/, '');
    const { episodes, lines } = readLines(text, (chars) => post({ type: 'progress', job, bytes: Math.round((chars / text.length) * blob.size) }));
    post({ type: 'done', job, episodes, lines });
  } catch (err) {
    post({ type: 'failed', job, line: err instanceof LineError ? err.line : 0, message: err instanceof Error ? err.message : String(err) });
  }
};
