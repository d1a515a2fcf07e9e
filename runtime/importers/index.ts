/** The benchmarks' own logs as episodes: pick the importer from a file's name or content. */
import { agentBoardEnvFromPath, agentBoardModelFromPath, importAgentBoardLog, readAgentBoardLog, type LogRead, type UnmatchedRecord } from './agentboard.ts';
import { agentBenchFromPath, importAgentBenchRuns } from './agentbench.ts';
import { LogImportError } from './common.ts';
import { logEnv, logSides } from './envLogs.ts';
import type { EpisodeRecord } from '../records.ts';

export { LogImportError, importAgentBoardLog, importAgentBenchRuns };
export type { LogRead, UnmatchedRecord };

export type LogKind = 'agentplay' | 'agentboard' | 'agentbench';

/** Which kind of file this is, from its first record. */
export function detectLogKind(text: string): LogKind | null {
  const head = text.slice(0, 4000);
  // An export may open with the task files its episodes need (a long line): its first key says what it is.
  if (/"format"\s*:\s*"agentplay-episode"/.test(head) || /^\uFEFF?\s*\{\s*"format"\s*:\s*"agentplay-taskfile"/.test(head)) return 'agentplay';
  if (/"trajectory"\s*:/.test(text.slice(0, 200000)) && /^\s*\{\s*\n/.test(text)) return 'agentboard';
  if (/"output"\s*:/.test(head) && /"history"\s*:/.test(text.slice(0, 200000))) return 'agentbench';
  if (/"trajectory"\s*:/.test(text.slice(0, 200000))) return 'agentboard';
  return null;
}

/** Import a benchmark log's episodes (records matching no problem are left out: readLog lists them). */
export async function importLog(text: string, path: string, given: { env?: string; model?: string } = {}): Promise<EpisodeRecord[]> {
  return (await readLog(text, path, given)).episodes;
}

/** Import a benchmark log; `path` gives the environment and model where the caller does not. */
export async function readLog(text: string, path: string, given: { env?: string; model?: string } = {}): Promise<LogRead> {
  const kind = detectLogKind(text);
  if (kind === 'agentboard') {
    const env = given.env ?? (await agentBoardEnvFromPath(path));
    if (!env) {
      const names = (await logSides('agentboard')).map((s) => `${s.id}.jsonl`).join(' or ');
      throw new LogImportError(0, `cannot tell the environment of ${path}: name the file ${names}, or give the environment`);
    }
    return readAgentBoardLog(text, { env, model: given.model ?? agentBoardModelFromPath(path) });
  }
  if (kind === 'agentbench') {
    const fromPath = await agentBenchFromPath(path);
    // Without AgentBench's folder layout (a file picked in the browser), the opening turns say which task it is.
    const env = given.env ?? fromPath.env ?? (await logEnv('agentbench', (logs) => logs.ownsText?.(text) ?? false));
    if (!env) throw new LogImportError(0, `cannot tell the environment of ${path}: keep AgentBench's {agent}/{task}/runs.jsonl layout (task os-… or dbbench-…), or give the environment`);
    return { episodes: await importAgentBenchRuns(text, { env, model: given.model ?? fromPath.model }), unmatched: [] };
  }
  throw new LogImportError(0, `${path} is neither an AgentBoard log (logs/{task}.jsonl) nor an AgentBench runs.jsonl`);
}

/** One line naming a record that was not imported, for messages. */
export function describeUnmatched(u: UnmatchedRecord): string {
  const goal = u.goal.length > 120 ? `${u.goal.slice(0, 117)}…` : u.goal;
  return `entry ${u.entry} (id ${JSON.stringify(u.id)}, ${u.taskName || 'no task_name'}, goal ${JSON.stringify(goal)}): ${u.reason}`;
}
