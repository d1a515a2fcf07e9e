/**
 * `scores FILE.jsonl…`: the benchmarks' tables from exported episodes, through the same
 * scoring module as the app (runtime/scores). Plain text by default, --json or --csv.
 * Standalone: `npx tsx scripts/scores.ts FILE…`; the CLI calls scoresCommand.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { EpisodeRecord } from '../runtime/records.ts';
import { computeScores, type HumanSource } from '../runtime/scores/index.ts';
import { catalogueTaskInfo } from '../runtime/taskInfo.ts';
import { toCsv, toText } from '../runtime/scores/format.ts';
import { describeUnmatched, detectLogKind, readLog } from '../runtime/importers/index.ts';
import { agentBoardResultLine, agentBoardRunResult, type AgentBoardRunResult } from '../runtime/scores/agentboard.ts';
// catalogueTaskInfo lives in runtime/ (the app's scores view uses it too); re-exported for existing callers.
export { catalogueTaskInfo };

export const SCORES_USAGE = `Usage: scores FILE.jsonl… [--json | --csv] [--human published|recorded] [--seed N]
        [--resamples N] [--exclude FILE] [--first-attempt]
  Scores exported episodes (the app's JSON Lines export, or the CLI's --out), AgentBoard's
  {log_path}/logs/{babyai,pddl}.jsonl (the model is the folder above logs/) and AgentBench's
  {agent}/{task}/runs.jsonl, as each benchmark does. For a benchmark log it first prints the
  benchmark's own figures: AgentBoard's all_results.txt line from the log's records, AgentBench's
  overall (total, pass, wrong, acc). Then the tables: SmartPlay mean and human-normalised scores and capability scores, AgentBench success
  rates, DB category accuracies, finish reasons and overall score, AgentBoard progress,
  success and grounding with easy/hard splits; per group of players (each person, humans
  pooled, random, oracle, each model), each figure with n and a 95% bootstrap interval, and
  the papers' published rows alongside.
  --human       SmartPlay's human baseline: the paper's (published, default) or the recorded
                human episodes (recorded).
  --seed N      bootstrap seed (default 1); --resamples N (default 1000).
  --exclude F   a file of episode ids to leave out, one per line.
  --first-attempt  count only each person's first attempt at a task.
  Practice episodes and unfinished episodes are left out.`;

class UsageError extends Error {}

/** Episodes from a JSON Lines export; names the file and line of anything unreadable. */
export function readEpisodes(text: string, file: string): EpisodeRecord[] {
  const out: EpisodeRecord[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, i) => {
      if (raw.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (e) {
        throw new Error(`${file}:${i + 1}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
      }
      const v = value as { format?: unknown; header?: { id?: unknown; env?: unknown; task?: unknown; driver?: unknown }; steps?: unknown };
      if (v?.format !== 'agentplay-episode') throw new Error(`${file}:${i + 1}: not an agentplay episode`);
      const h = v.header;
      if (!h || typeof h.id !== 'string' || typeof h.env !== 'string' || typeof h.task !== 'string' || !h.driver || !Array.isArray(v.steps)) {
        throw new Error(`${file}:${i + 1}: an episode needs header.id, header.env, header.task, header.driver and steps`);
      }
      out.push(value as EpisodeRecord);
    });
  return out;
}

/** A benchmark log's own figures, as the benchmark writes them. */
interface LogFigures {
  file: string;
  benchmark: 'AgentBoard' | 'AgentBench';
  model: string;
  env: string;
  /** AgentBoard: the all_results.txt line; AgentBench: overall.json's "overall". */
  figures: AgentBoardRunResult | { total: number; pass: number; wrong: number; acc: number };
  unmatched: string[];
  text: string;
}

function logFiguresOf(file: string, kind: 'agentboard' | 'agentbench', read: Awaited<ReturnType<typeof readLog>>): LogFigures {
  const first = read.episodes[0]?.header;
  const model = first?.driver.name ?? '?';
  const unmatched = read.unmatched.map(describeUnmatched);
  const notes = unmatched.map((u) => `  not scored in the tables below (matched no problem): ${u}\n`).join('');
  if (kind === 'agentboard') {
    // AgentBoard averages every record of the run, matched here or not; task_name is the log's name.
    const taskName = file.split(/[\\/]/).at(-1)!.replace(/\.jsonl$/, '');
    const problems = read.problems ?? [];
    const figures = agentBoardRunResult(taskName, problems);
    const text = `AgentBoard log ${file} (model ${model}, ${problems.length} records): all_results.txt\n  ${agentBoardResultLine(figures, problems)}\n${notes}\n`;
    return { file, benchmark: 'AgentBoard', model, env: first?.env ?? taskName, figures, unmatched, text };
  }
  // AgentBench's calculate_overall (src/server/tasks/os_interaction/task.py): pass = samples whose result passed.
  const total = read.episodes.length;
  const pass = read.episodes.filter((e) => e.header.outcome?.success === true).length;
  const figures = { total, pass, wrong: total - pass, acc: total ? pass / total : 0 };
  const text = `AgentBench runs ${file} (agent ${model}, ${first?.env ?? '?'}): overall ${JSON.stringify(figures)}\n${notes}\n`;
  return { file, benchmark: 'AgentBench', model, env: first?.env ?? '?', figures, unmatched, text };
}

function parseArgs(args: string[]) {
  const files: string[] = [];
  const flags = new Map<string, string | true>();
  const valued = new Set(['human', 'seed', 'resamples', 'exclude']);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) {
      files.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2);
    if (valued.has(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value.`);
      flags.set(name, value);
    } else if (['json', 'csv', 'first-attempt', 'help'].includes(name)) flags.set(name, true);
    else throw new UsageError(`Unknown option --${name}.`);
  }
  return { files, flags };
}

function wholeNumber(flags: Map<string, string | true>, name: string, min: number): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}.`);
  return n;
}

/** `scores FILE…`: prints the tables through `out`; returns the exit code (0 ok, 1 bad input, 2 usage). */
export async function scoresCommand(args: string[], out: (s: string) => void): Promise<number> {
  try {
    const { files, flags } = parseArgs(args);
    if (flags.has('help')) {
      out(SCORES_USAGE + '\n');
      return 0;
    }
    if (files.length === 0) throw new UsageError('Give at least one FILE.jsonl.');
    if (flags.has('json') && flags.has('csv')) throw new UsageError('Choose one of --json and --csv.');
    const human = flags.get('human') ?? 'published';
    if (human !== 'published' && human !== 'recorded') throw new UsageError('--human is published or recorded.');
    const seed = wholeNumber(flags, 'seed', 0);
    const resamples = wholeNumber(flags, 'resamples', 1);
    const excludeFile = flags.get('exclude');

    const records: EpisodeRecord[] = [];
    const seen = new Set<string>();
    const logFigures: LogFigures[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const kind = detectLogKind(text);
      let episodes: EpisodeRecord[];
      if (kind === 'agentboard' || kind === 'agentbench') {
        const read = await readLog(text, file).catch((e: unknown) => {
          throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`);
        });
        episodes = read.episodes;
        logFigures.push(logFiguresOf(file, kind, read));
      } else episodes = readEpisodes(text, file);
      for (const r of episodes) {
        if (seen.has(r.header.id)) continue; // the same episode in two exports counts once
        seen.add(r.header.id);
        records.push(r);
      }
    }
    const excluded =
      typeof excludeFile === 'string'
        ? new Set(readFileSync(excludeFile, 'utf8').split(/\r?\n/).map((s) => s.trim()).filter(Boolean))
        : undefined;
    const report = computeScores(records, {
      taskInfo: await catalogueTaskInfo(records),
      humanSource: human as HumanSource,
      excluded,
      firstAttemptOnly: flags.has('first-attempt'),
      seed,
      resamples,
    });
    if (flags.has('json')) out(JSON.stringify(logFigures.length ? { benchmarkLogs: logFigures, ...report } : report, null, 2) + '\n');
    else if (flags.has('csv')) out(toCsv(report));
    else out(logFigures.map((f) => f.text).join('') + toText(report));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      out(`${e.message}\n\n${SCORES_USAGE}\n`);
      return 2;
    }
    out(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  scoresCommand(process.argv.slice(2), (s) => process.stdout.write(s)).then((code) => (process.exitCode = code));
}
