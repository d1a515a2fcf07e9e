/**
 * What the Episodes page's import adds for replays: the benchmarks' own logs (AgentBoard,
 * AgentBench) turned into episodes, and verifying what was imported. Loaded only when used.
 */
import { parseJsonl, toJsonl } from '../../runtime/jsonl.ts';
import { describeUnmatched, detectLogKind, readLog } from '../../runtime/importers/index.ts';
import { describeVerdict } from '../../runtime/verify.ts';
import { verifyInWorker } from './verifyInWorker.ts';

/** The file as agentplay JSON Lines: benchmark logs are converted; `model` names the model a log does not. */
export async function asEpisodeJsonl(text: string, fileName: string, model?: string): Promise<{ text: string; from: string | null }> {
  const kind = detectLogKind(text);
  if (kind !== 'agentboard' && kind !== 'agentbench') return { text, from: null };
  const read = await readLog(text, fileName, model ? { model } : {});
  const what = kind === 'agentboard' ? 'an AgentBoard log' : 'an AgentBench runs.jsonl';
  // Records that are no problem of ours (or several) are not imported against a guess: say which.
  const left = read.unmatched.length ? `; ${read.unmatched.length} record(s) left out, matching no problem: ${read.unmatched.map(describeUnmatched).join('; ')}` : '';
  return { text: toJsonl(read.episodes), from: what + left };
}

/**
 * Verify every episode in a JSON Lines text: one summary sentence, and per episode whether its
 * replay diverged from the record (null when it matched or could not be replayed here).
 */
export async function verifyJsonl(text: string): Promise<{ ok: boolean; text: string; results: { id: string; failed: string | null }[] }> {
  const records = parseJsonl(text);
  const problems: string[] = [];
  const results: { id: string; failed: string | null }[] = [];
  for (const r of records) {
    const v = await verifyInWorker(r);
    if (v.kind !== 'verified') problems.push(`${r.header.task} (${r.header.id.slice(0, 12)}): ${describeVerdict(v)}`);
    results.push({ id: r.header.id, failed: v.kind === 'diverged' ? describeVerdict(v) : null });
  }
  const verified = records.length - problems.length;
  return { ok: problems.length === 0, text: `Verified ${verified} of ${records.length}.${problems.length ? ` ${problems.join(' · ')}` : ''}`, results };
}
