/**
 * What the Episodes page's import adds for replays: the benchmarks' own logs (AgentBoard,
 * AgentBench) turned into episodes, and verifying what was imported. Loaded only when used.
 */
import { parseJsonl, toJsonl } from '../../runtime/jsonl.ts';
import { describeUnmatched, detectLogKind, readLog } from '../../runtime/importers/index.ts';
import { describeVerdict } from '../../runtime/verify.ts';
import { verifyInWorker } from './verifyInWorker.ts';
import { verificationOf } from './verificationMarks.ts';
import { entries } from '../../envs/index.ts';
import type { Verification } from '../../runtime/records.ts';

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

/** Why an episode is not verified on import by default: its environment may not replay exactly (EnvMeta.inexactReplay), or null. */
export function inexactReplayOf(env: string): string | null {
  return entries().find((e) => e.id === env)?.inexactReplay ?? null;
}

/**
 * Verify the episodes in a JSON Lines text: one summary sentence, and per episode the mark its
 * header keeps (verified, failed with the divergence, or skipped with why). Episodes of
 * environments that may not replay exactly are skipped unless `inexact` asks for them too; one
 * that could not be replayed here (an unknown task) gets no mark.
 */
export async function verifyJsonl(text: string, options: { inexact?: boolean } = {}): Promise<{ ok: boolean; text: string; results: { id: string; verification: Verification }[] }> {
  const records = parseJsonl(text);
  const problems: string[] = [];
  const skipped: string[] = [];
  const results: { id: string; verification: Verification }[] = [];
  const at = new Date().toISOString();
  for (const r of records) {
    const name = `${r.header.task} (${r.header.id.slice(0, 12)})`;
    const why = options.inexact ? null : inexactReplayOf(r.header.env);
    if (why) {
      skipped.push(name);
      results.push({ id: r.header.id, verification: { result: 'skipped', detail: `not verified on import: ${why}`, at } });
      continue;
    }
    const v = await verifyInWorker(r);
    if (v.kind !== 'verified') problems.push(`${name}: ${describeVerdict(v)}`);
    const mark = verificationOf(v, at);
    if (mark) results.push({ id: r.header.id, verification: mark });
  }
  const checked = records.length - skipped.length;
  const reasons = [...new Set(records.map((r) => inexactReplayOf(r.header.env)).filter((x): x is string => !!x && skipped.length > 0))];
  const notChecked = skipped.length
    ? ` Not verified: ${skipped.join(', ')}, because ${reasons.join('; and ')} (check one from its replay's Verify, or tick “also environments that may not replay exactly”).`
    : '';
  return { ok: problems.length === 0, text: `${checked ? `Verified ${checked - problems.length} of ${checked}.` : ''}${problems.length ? ` ${problems.join(' · ')}` : ''}${notChecked}`.trim(), results };
}
