/**
 * `npm run -s cli -- import FILE… [-o OUT] [--env ENV] [--model NAME]`: the episodes of benchmark
 * logs (AgentBoard logs/{task}.jsonl, AgentBench {agent}/{task}/runs.jsonl) as the app's JSON Lines
 * export (runtime/jsonl.ts toJsonl), to stdout or OUT. Records that match no problem are named on
 * stderr and left out. Exit 0: written, every record imported; 1: written, some records left out;
 * 2: bad arguments, or a file that is not such a log or cannot be read (nothing written).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { toJsonl } from '../runtime/jsonl.ts';
import { describeUnmatched, detectLogKind, readLog } from '../runtime/importers/index.ts';
import type { EpisodeRecord } from '../runtime/records.ts';

export const IMPORT_USAGE = `  npm run -s cli -- import FILE… [-o OUT] [--env ENV] [--model NAME]
        writes the episodes of AgentBoard logs/{babyai,pddl}.jsonl and AgentBench
        {agent}/{task}/runs.jsonl as the app's JSON Lines export (stdout, or OUT). Records that
        match no problem are named on stderr and left out (exit 1); bad files exit 2.`;

export async function importCommand(args: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const files: string[] = [];
  const given: { env?: string; model?: string } = {};
  let outFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-o' || a === '--out' || a === '--env' || a === '--model') {
      const value = args[++i];
      if (value === undefined) {
        err(`agentplay: ${a} takes a value.\nUsage:\n${IMPORT_USAGE}\n`);
        return 2;
      }
      if (a === '-o' || a === '--out') outFile = value;
      else given[a === '--env' ? 'env' : 'model'] = value;
    } else if (a.startsWith('-')) {
      err(`agentplay: unknown flag ${a} for import.\nUsage:\n${IMPORT_USAGE}\n`);
      return 2;
    } else files.push(a);
  }
  if (files.length === 0) {
    err(`agentplay: import needs at least one log file.\nUsage:\n${IMPORT_USAGE}\n`);
    return 2;
  }
  const episodes: EpisodeRecord[] = [];
  let left = 0;
  for (const file of files) {
    try {
      const text = readFileSync(file, 'utf8');
      const kind = detectLogKind(text);
      if (kind !== 'agentboard' && kind !== 'agentbench') {
        err(`agentplay: ${file}: ${kind === 'agentplay' ? 'already agentplay JSON Lines' : 'neither an AgentBoard log (logs/{task}.jsonl) nor an AgentBench runs.jsonl'}\n`);
        return 2;
      }
      const read = await readLog(text, file, given);
      episodes.push(...read.episodes);
      for (const u of read.unmatched) err(`agentplay: ${file}: left out ${describeUnmatched(u)}\n`);
      left += read.unmatched.length;
    } catch (e) {
      err(`agentplay: ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  const text = toJsonl(episodes);
  if (outFile) writeFileSync(outFile, text);
  else out(text);
  err(`${episodes.length} episode(s) written${outFile ? ` to ${outFile}` : ''}${left ? `; ${left} record(s) left out` : ''}\n`);
  return left === 0 ? 0 : 1;
}
