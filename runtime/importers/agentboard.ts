/**
 * AgentBoard's logs as episodes (UPSTREAM.md §J). `logs/{task}.jsonl` is not JSON Lines:
 * each problem's record is written with json.dumps(indent=2), so the file is a stream of
 * pretty-printed JSON objects, read here with a streaming scanner. Each record has `id`
 * (the problem index: babyai-{id}, pddl-{id}), `is_done`, `progress_rate`, and
 * `trajectory`, an object keyed "Interaction Turn {k}" → {Goal, Observation, Action,
 * Progress Rate}. The quirk: turn 0's initial observation is overwritten by the
 * observation after action 0, so turn k always holds action k and what followed it, and
 * the reset observation is lost (the episode opens with our port's reset observation).
 * `Progress Rate` may be the integer 0 before the first float. The log does not name the
 * model: the caller does (the CLI and app take it from the folder above `logs/`).
 * Verification compares each step's observation and progress rate (= our score).
 */
import { LogImportError, envAndTask, importedEpisode, importedId, resetObservation, type ImportedStep } from './common.ts';
import { logEnv, logSides } from './envLogs.ts';
import type { EpisodeRecord } from '../records.ts';

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

export async function importAgentBoardLog(text: string, options: AgentBoardImport): Promise<EpisodeRecord[]> {
  const sides = await logSides('agentboard');
  if (!sides.some((s) => s.id === options.env)) throw new LogImportError(0, `AgentBoard logs are imported for ${sides.map((s) => s.id).join(' and ')}, not "${options.env}"`);
  const records = parseJsonStream(text);
  if (records.length === 0) throw new LogImportError(0, 'The log holds no records.');
  const out: EpisodeRecord[] = [];
  for (let n = 0; n < records.length; n++) {
    const entry = n + 1;
    const r = records[n] as Record<string, unknown>;
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new LogImportError(entry, 'expected an object');
    const id = num(r.id, 'id', entry);
    const taskId = `${options.env}-${id}`;
    let env, task;
    try {
      ({ env, task } = await envAndTask(options.env, taskId));
    } catch {
      throw new LogImportError(entry, `no task ${taskId} in this port`);
    }
    const trajectory = r.trajectory;
    if (trajectory === null || typeof trajectory !== 'object' || Array.isArray(trajectory)) throw new LogImportError(entry, 'trajectory should be an object keyed "Interaction Turn k"');
    const turns = Object.entries(trajectory as Record<string, unknown>)
      .map(([key, value]) => {
        const m = TURN.exec(key);
        if (!m) throw new LogImportError(entry, `unexpected trajectory key ${JSON.stringify(key)}`);
        return { k: Number(m[1]), value: value as Record<string, unknown> };
      })
      .sort((a, b) => a.k - b.k);
    turns.forEach((turn, i) => {
      if (turn.k !== i) throw new LogImportError(entry, `trajectory turns should be 0, 1, 2, …; turn ${i} is missing`);
    });
    let previous = 0;
    const steps: ImportedStep[] = turns.map(({ k, value }) => {
      if (typeof value?.Action !== 'string' || typeof value?.Observation !== 'string') {
        throw new LogImportError(entry, `Interaction Turn ${k} needs an Action and an Observation`);
      }
      const progress = num(value['Progress Rate'] ?? 0, `Interaction Turn ${k} Progress Rate`, entry);
      const step: ImportedStep = {
        action: value.Action,
        observation: value.Observation,
        score: progress,
        reward: progress - previous,
        progress,
        valid: true,
        terminated: false,
        verify: ['observation', 'score'],
      };
      previous = progress;
      return step;
    });
    // AgentBoard keeps the full last prompt (example_prompt) on problems it did not finish: it is what the model saw at the last step.
    if (typeof r.example_prompt === 'string' && steps.length > 0) {
      const last = steps[steps.length - 1];
      last.model = {
        model: options.model,
        calls: [{ messages: [{ role: 'user', content: r.example_prompt }], reply: last.action, tokens: null, latencyMs: null, finishReason: null, retries: 0 }],
        reply: last.action,
        tokens: null,
        latencyMs: 0,
      };
    }
    const done = r.is_done === true;
    if (steps.length > 0 && done) steps[steps.length - 1].terminated = true;
    const progressRate = r.progress_rate === undefined ? previous : num(r.progress_rate, 'progress_rate', entry);
    out.push(
      importedEpisode({
        id: importedId('agentboard', options.model, taskId),
        env,
        task,
        seed: 0,
        model: options.model,
        protocol: 'agentboard',
        initialObservation: await resetObservation(env, task, 0),
        steps,
        outcome: { score: progressRate, success: done, finishReason: done ? 'Complete' : 'Task Limit Exceeded' },
      }),
    );
  }
  return out;
}
