/**
 * AgentBoard's logs as episodes (the top-level README.md, "Log importers"; AgentBoard's
 * agentboard/utils/logging/logger.py). `logs/{task}.jsonl` is not JSON Lines:
 * each problem's record is written with json.dumps(indent=2), so the file is a stream of
 * pretty-printed JSON objects, read here with a streaming scanner. Each record has `id`
 * (the problem's number in that run), `task_name` and `goal` (which problem it is: see
 * readAgentBoardLog), `difficulty`, `is_done`, `progress_rate`, and
 * `trajectory`, an object keyed "Interaction Turn {k}" → {Goal, Observation, Action,
 * Progress Rate}. The quirk: turn 0's initial observation is overwritten by the
 * observation after action 0, so turn k always holds action k and what followed it, and
 * the reset observation is lost (the episode opens with our port's reset observation).
 * `Progress Rate` may be the integer 0 before the first float. The log does not name the
 * model: the caller does (the CLI and app take it from the folder above `logs/`).
 * Verification compares each step's observation and progress rate (= our score).
 */
import { LogImportError, importedEpisode, importedId, type ImportedStep } from './common.ts';
import { logEnv, logSides } from './envLogs.ts';
import { loadEnv } from '../../envs/index.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import type { EpisodeRecord } from '../records.ts';
import type { AgentBoardLogProblem } from '../scores/agentboard.ts';

/** Split a stream of (pretty-printed) JSON values into parsed values. Throws LogImportError naming the entry. */
export function parseJsonStream(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (depth < 0) throw new LogImportError(values.length + 1, `unexpected "${ch}"`);
      if (depth === 0) {
        const raw = text.slice(start, i + 1);
        try {
          values.push(JSON.parse(raw));
        } catch (e) {
          throw new LogImportError(values.length + 1, `not valid JSON (${e instanceof Error ? e.message : String(e)})`);
        }
      }
    } else if (depth === 0 && !/\s/.test(ch)) {
      throw new LogImportError(values.length + 1, `unexpected text "${text.slice(i, i + 20)}" between records`);
    }
  }
  if (depth !== 0 || inString) throw new LogImportError(values.length + 1, 'the file ends inside a record');
  return values;
}

const TURN = /^Interaction Turn (\d+)$/;

function num(x: unknown, what: string, entry: number): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new LogImportError(entry, `${what} should be a number, got ${JSON.stringify(x)}`);
  return x;
}

export interface AgentBoardImport {
  /** Our environment the log is of (one whose catalogue line has `logs`: envLogs.ts; the log file's name without .jsonl). */
  env: string;
  /** The model that ran (AgentBoard's log does not say). */
  model: string;
}

/** The environment a log file is for, from its name (`…/logs/{env}.jsonl`; each environment's `logs` says). */
export function agentBoardEnvFromPath(path: string): Promise<string | null> {
  return logEnv('agentboard', (logs) => logs.ownsPath(path));
}

/** The model a log belongs to, from AgentBoard's folder layout (`{log_path}/logs/{task}.jsonl`, log_path named after the run). */
export function agentBoardModelFromPath(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  const logs = parts.lastIndexOf('logs');
  return logs > 0 ? parts[logs - 1] : 'unknown model';
}

/** A record the importer did not replay: no problem, or several, has its content. */
export interface UnmatchedRecord {
  /** 1-based position in the file. */
  entry: number;
  id: unknown;
  taskName: string;
  goal: string;
  reason: string;
}

export interface LogRead {
  episodes: EpisodeRecord[];
  unmatched: UnmatchedRecord[];
  /** AgentBoard: every record's own figures in file order, matched or not (what AgentBoard averaged). */
  problems?: AgentBoardLogProblem[];
}

const str = (x: unknown): string => (typeof x === 'string' ? x : '');

/** A log's episodes; records that match no problem (or several) are listed, not replayed against a guess. */
export async function importAgentBoardLog(text: string, options: AgentBoardImport): Promise<EpisodeRecord[]> {
  return (await readAgentBoardLog(text, options)).episodes;
}

/**
 * Each record is matched to our problem by its content: `task_name` and `goal`, through the
 * environment's `logs.recordTasks`. Its `id` only breaks a tie: AgentBoard runs a domain's
 * problems (a level's seeds) in order and a subset run takes the first n of each, so the
 * records of one content, in id order, are the tied problems in catalogue order.
 */
export async function readAgentBoardLog(logText: string, options: AgentBoardImport): Promise<LogRead> {
  const sides = await logSides('agentboard');
  const logs = sides.find((s) => s.id === options.env)?.logs;
  if (!logs) throw new LogImportError(0, `AgentBoard logs are imported for ${sides.map((s) => s.id).join(' and ')}, not "${options.env}"`);
  const records = parseJsonStream(logText);
  if (records.length === 0) throw new LogImportError(0, 'The log holds no records.');
  const env = await loadEnv(options.env);
  const tasks = env.tasks();
  const parsed = records.map((raw, n) => {
    const entry = n + 1;
    const r = raw as Record<string, unknown>;
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new LogImportError(entry, 'expected an object');
    return { entry, r, id: num(r.id, 'id', entry), taskName: str(r.task_name), goal: str(r.goal), turns: turnsOf(r, entry) };
  });
  const key = (p: { taskName: string; goal: string }) => `${p.taskName}\u0000${p.goal}`;
  const sameContent = new Map<string, number[]>();
  for (const p of parsed) sameContent.set(key(p), [...(sameContent.get(key(p)) ?? []), p.id]);
  const candidatesOf = (p: { id: number; taskName: string; goal: string }) =>
    !p.taskName || !p.goal ? [] : logs.recordTasks ? logs.recordTasks(tasks, p) : tasks.filter((t) => t.id === `${options.env}-${p.id}`);
  const matched = parsed.map((p) => ({ ...p, candidates: candidatesOf(p) }));
  // A log of the whole set numbers its problems as we do: then `id` names the tied problem. A
  // subset run numbers from 0 (some record's id is then not among its candidates): then tied
  // records, in id order, are the tied problems in catalogue order.
  const wholeSet = matched.every((p) => p.candidates.length === 0 || p.candidates.some((t) => t.id === `${options.env}-${p.id}`));
  const out: EpisodeRecord[] = [];
  const unmatched: UnmatchedRecord[] = [];
  for (const { entry, r, id, taskName, goal, turns, candidates } of matched) {
    const miss = (reason: string) => unmatched.push({ entry, id, taskName, goal, reason });
    if (!taskName || !goal) {
      miss('the record has no task_name and goal to match a problem by');
      continue;
    }
    if (candidates.length === 0) {
      miss(`no ${options.env} problem has task_name ${JSON.stringify(taskName)} and this goal`);
      continue;
    }
    const ids = [...sameContent.get(key({ taskName, goal }))!].sort((a, b) => a - b);
    const task = wholeSet ? candidates.find((t) => t.id === `${options.env}-${id}`)! : ids.length <= candidates.length ? candidates[ids.indexOf(id)] : null;
    if (!task) {
      miss(`${ids.length} records have this content but ${candidates.length === 1 ? 'one problem does' : `${candidates.length} problems do`} (${candidates.map((t) => t.id).join(', ')})`);
      continue;
    }
    out.push(await episodeOf(env, task, r, entry, turns, options.model));
  }
  const problems = matched.map(({ r, entry }) => ({
    success: r.is_done === true,
    progressRate: r.progress_rate === undefined ? 0 : num(r.progress_rate, 'progress_rate', entry),
    groundingAccuracy: r.grounding_acc === undefined ? 0 : num(r.grounding_acc, 'grounding_acc', entry),
    difficulty: str(r.difficulty),
  }));
  return { episodes: out, unmatched, problems };
}

function turnsOf(r: Record<string, unknown>, entry: number): { k: number; value: Record<string, unknown> }[] {
  const trajectory = r.trajectory;
  if (trajectory === null || typeof trajectory !== 'object' || Array.isArray(trajectory)) throw new LogImportError(entry, 'trajectory should be an object keyed "Interaction Turn k"');
  const turns = Object.entries(trajectory as Record<string, unknown>)
    .map(([k, value]) => {
      const m = TURN.exec(k);
      if (!m) throw new LogImportError(entry, `unexpected trajectory key ${JSON.stringify(k)}`);
      return { k: Number(m[1]), value: value as Record<string, unknown> };
    })
    .sort((a, b) => a.k - b.k);
  turns.forEach((turn, i) => {
    if (turn.k !== i) throw new LogImportError(entry, `trajectory turns should be 0, 1, 2, …; turn ${i} is missing`);
    if (typeof turn.value?.Action !== 'string' || typeof turn.value?.Observation !== 'string') {
      throw new LogImportError(entry, `Interaction Turn ${turn.k} needs an Action and an Observation`);
    }
  });
  return turns;
}

/**
 * One record as an episode. The log keeps no per-step validity (only `grounding_acc`, the share
 * of steps whose `infos["action_is_valid"]` was true), so each step's validity is what our port
 * answers to the logged action, replayed from the reset: the same flag AgentBoard counted.
 */
async function episodeOf(env: EnvDefinition, task: TaskInfo, r: Record<string, unknown>, entry: number, turns: { k: number; value: Record<string, unknown> }[], model: string): Promise<EpisodeRecord> {
  const taskId = task.id;
  const init = await env.reset(task, 0);
  let state = init.state;
  let previous = 0;
  let replaying = true;
  const steps: ImportedStep[] = [];
  for (const { k, value } of turns) {
    const action = value.Action as string;
    let valid = true;
    if (replaying) {
      const next = await env.step(state, action);
      state = next.state;
      valid = next.valid;
      replaying = !next.terminated && !next.truncated;
    }
    const progress = num(value['Progress Rate'] ?? 0, `Interaction Turn ${k} Progress Rate`, entry);
    steps.push({ action, observation: value.Observation as string, score: progress, reward: progress - previous, progress, valid, terminated: false, verify: ['observation', 'score'] });
    previous = progress;
  }
  env.dispose?.(state as never);
    // AgentBoard keeps the full last prompt (example_prompt) on problems it did not finish: it is what the model saw at the last step.
    if (typeof r.example_prompt === 'string' && steps.length > 0) {
      const last = steps[steps.length - 1];
      last.model = {
        model,
        calls: [{ messages: [{ role: 'user', content: r.example_prompt }], reply: last.action, tokens: null, latencyMs: null, finishReason: null, retries: 0 }],
        reply: last.action,
        tokens: null,
        latencyMs: 0,
      };
    }
    const done = r.is_done === true;
    if (steps.length > 0 && done) steps[steps.length - 1].terminated = true;
    const progressRate = r.progress_rate === undefined ? previous : num(r.progress_rate, 'progress_rate', entry);
  return importedEpisode({
    id: importedId('agentboard', model, taskId),
    env,
    task,
    seed: 0,
    model,
    protocol: 'agentboard',
    initialObservation: init.observation,
    steps,
    outcome: { score: progressRate, success: done, finishReason: done ? 'Complete' : 'Task Limit Exceeded' },
  });
}
