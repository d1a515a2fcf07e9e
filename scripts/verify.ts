/**
 * `npm run -s cli -- verify FILE.jsonl… [--env ENV] [--model NAME] [--json]`: re-run every
 * episode in the files (agentplay exports, AgentBoard logs/{task}.jsonl, AgentBench
 * runs.jsonl) and compare it with its record (runtime/verify.ts).
 * Exit codes: 0 every episode verified; 1 at least one diverged or could not be checked;
 * 2 bad arguments or a file that cannot be read or parsed.
 */
import { readFileSync } from 'node:fs';
import { parseExportFile } from '../runtime/jsonl.ts';
import { registerTaskFile } from '../runtime/taskFiles.ts';
import { loadEnv } from '../envs/index.ts';
import { describeUnmatched, detectLogKind, readLog, type UnmatchedRecord } from '../runtime/importers/index.ts';
import { describeVerdict, verifyEpisode } from '../runtime/verify.ts';
import type { EpisodeRecord } from '../runtime/records.ts';

export const VERIFY_USAGE = `  npm run -s cli -- verify FILE.jsonl… [--env ENV] [--model NAME] [--json]
        re-runs each episode's actions with its seed and compares every observation, reward
        and score with the record. Files: agentplay exports, AgentBoard logs/{babyai,pddl}.jsonl,
        AgentBench {agent}/{task}/runs.jsonl (--env/--model override what the path says).
        Exit 0: all verified; 1: some diverged or could not be checked; 2: bad arguments or file.`;

export async function verifyCommand(args: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const files: string[] = [];
  const given: { env?: string; model?: string } = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--env' || a === '--model') {
      const value = args[++i];
      if (value === undefined) {
        err(`agentplay: ${a} takes a value.\n`);
        return 2;
      }
      given[a === '--env' ? 'env' : 'model'] = value;
    } else if (a.startsWith('--')) {
      err(`agentplay: unknown flag ${a} for verify.\nUsage:\n${VERIFY_USAGE}\n`);
      return 2;
    } else files.push(a);
  }
  if (files.length === 0) {
    err(`agentplay: verify needs at least one file.\nUsage:\n${VERIFY_USAGE}\n`);
    return 2;
  }
  const batches: { file: string; records: EpisodeRecord[]; unmatched: UnmatchedRecord[] }[] = [];
  for (const file of files) {
    try {
      const text = readFileSync(file, 'utf8');
      const kind = detectLogKind(text);
      if (kind === 'agentplay' || kind === null) {
        // An export carries the imported task files its episodes need: registered first, so they verify.
        const { episodes, taskFiles } = parseExportFile(text);
        for (const taskFile of taskFiles) registerTaskFile(await loadEnv(taskFile.env), taskFile);
        batches.push({ file, records: episodes, unmatched: [] });
      } else {
        const read = await readLog(text, file, given);
        batches.push({ file, records: read.episodes, unmatched: read.unmatched });
      }
    } catch (e) {
      err(`agentplay: ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  let verified = 0;
  let failed = 0;
  let unmatchedCount = 0;
  for (const { file, records, unmatched } of batches) {
    // A log record that is no problem (or several) is not replayed against a guess: it cannot be checked.
    for (const u of unmatched) {
      unmatchedCount++;
      if (json) out(`${JSON.stringify({ file, kind: 'unmatched', entry: u.entry, id: u.id, taskName: u.taskName, goal: u.goal, reason: u.reason })}\n`);
      else out(`FAIL ${file} unmatched ${describeUnmatched(u)}\n`);
    }
    for (const record of records) {
      const verdict = await verifyEpisode(record);
      if (verdict.kind === 'verified') verified++;
      else failed++;
      const { id, env, task, seed } = record.header;
      if (json) out(`${JSON.stringify({ file, id, env, task, seed, ...verdict })}\n`);
      else out(`${verdict.kind === 'verified' ? 'ok  ' : 'FAIL'} ${file} ${id} ${task} seed ${seed}: ${describeVerdict(verdict)}\n`);
    }
  }
  if (json) out(`${JSON.stringify({ episodes: verified + failed, verified, failed, unmatched: unmatchedCount })}\n`);
  else out(`${verified} of ${verified + failed} episode(s) verified${unmatchedCount ? `; ${unmatchedCount} log record(s) matched no problem (unmatched)` : ''}\n`);
  return failed === 0 && unmatchedCount === 0 ? 0 : 1;
}
