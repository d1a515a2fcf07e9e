/**
 * AgentBench's outputs as episodes. What was followed (THUDM/AgentBench, src/assigner.py,
 * src/typings/output.py, src/typings/general.py, src/typings/status.py,
 * src/server/tasks/os_interaction/task.py): the assigner appends one JSON line per finished
 * sample to `{output}/{agent}/{task}/runs.jsonl`:
 *   {"index": <sample index>, "error": null, "info": null,
 *    "output": {"index": …, "status": "completed" | "agent context limit" | "agent validation failed"
 *               | "agent invalid action" | "task limit reached" | "unknown" | "task error",
 *               "result": {…}, "history": [{"role": "user" | "agent", "content": "…"}, …]},
 *    "time": {"timestamp": <ms>, "str": "YYYY-MM-DD HH:MM:SS"}}
 * (failed samples go to error.jsonl with the same shape). The history starts with the task's
 * fixed opening (OS: the instruction with the one-shot problem, the one-shot turns, then the
 * problem; DB: the instruction, the agent's "Ok.", then the question), then the agent's
 * replies alternate with the environment's answers. OS indices are "{prefix}{file}-%05d"
 * (our task's upstream name), its result {"result": bool, "file", "index_in_file"};
 * DB indices are the sample number. The agent (the model) is the folder name `{agent}`.
 * Verification compares each reply's environment answer (the final reply has none) and,
 * on the last step, the score against the recorded result.
 */
import { truncateAgentBench } from '../../envs/core/prompts/index.ts';
import { conversationFor } from '../../suites/index.ts';
import { LogImportError, importedEpisode, importedId, resetObservation, type ImportedStep } from './common.ts';
import { logEnv, logSides, type EnvLogs } from './envLogs.ts';
import { loadEnv } from '../../envs/index.ts';
import type { FinishReason } from '../../envs/core/types.ts';
import type { EpisodeRecord } from '../records.ts';

const STATUS: Record<string, FinishReason> = {
  completed: 'Complete',
  'agent context limit': 'Context Limit Exceeded',
  'agent validation failed': 'Invalid Format',
  'agent invalid action': 'Invalid Action',
  'task limit reached': 'Task Limit Exceeded',
  'task error': 'Task Error',
  unknown: 'Task Error',
};

export interface AgentBenchImport {
  /** Our environment the outputs are of (one whose catalogue line has `logs`: envLogs.ts). */
  env: string;
  /** The agent (model) that ran; AgentBench's folder `{output}/{agent}/{task}/`. */
  model: string;
}

/** `…/{agent}/{task}/runs.jsonl` → the agent and which of our environments the task is (each environment's `logs` says). */
export async function agentBenchFromPath(path: string): Promise<{ model: string; env: string | null }> {
  const parts = path.split(/[\\/]/).filter(Boolean);
  const model = parts[parts.length - 3] ?? 'unknown model';
  return { model, env: await logEnv('agentbench', (logs) => logs.ownsPath(path)) };
}

/**
 * How many history turns come before the agent's first real reply: as many as the suite's own
 * opening for this task (OS 7: the instruction with the one-shot question, the one-shot turns,
 * the problem; DB 3: the instruction, "Ok.", the question), when the log's history has that
 * structure (its last opening turn is the user's). Failing that, up to the user turn that
 * states the problem (our reset observation, or upstream's own marker of it where the
 * environment names one).
 */
function openingLength(logs: EnvLogs, history: readonly { role: string; content: string }[], resetObservation: string, ownOpening: number): number {
  if (history.length >= ownOpening && history[ownOpening - 1].role === 'user' && (ownOpening === history.length || history[ownOpening].role === 'agent')) return ownOpening;
  for (let i = history.length - 1; i >= 0; i--) if (history[i].role === 'user' && history[i].content === resetObservation) return i + 1;
  if (logs.problemTurn) {
    for (let i = history.length - 1; i >= 0; i--) if (history[i].role === 'user' && history[i].content.startsWith(logs.problemTurn)) return i + 1;
  }
  return Math.min(ownOpening, history.length);
}

export async function importAgentBenchRuns(text: string, options: AgentBenchImport): Promise<EpisodeRecord[]> {
  const sides = await logSides('agentbench');
  const logs = sides.find((s) => s.id === options.env)?.logs;
  if (!logs?.sampleTask) throw new LogImportError(0, `AgentBench outputs are imported for ${sides.map((s) => s.id).join(' and ')}, not "${options.env}"`);
  const env = await loadEnv(options.env);
  const out: EpisodeRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw) continue;
    const entry = i + 1;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(raw);
    } catch (e) {
      throw new LogImportError(entry, `not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const output = line.output as Record<string, unknown> | null | undefined;
    if (!output || typeof output !== 'object') throw new LogImportError(entry, 'no "output" (expected a line of runs.jsonl)');
    const history = output.history;
    if (!Array.isArray(history)) throw new LogImportError(entry, 'output.history should be a list of {role, content}');
    history.forEach((h, k) => {
      if (!h || (h.role !== 'user' && h.role !== 'agent') || typeof h.content !== 'string') {
        throw new LogImportError(entry, `output.history[${k}] should be {"role": "user" | "agent", "content": string}`);
      }
    });
    const result = (output.result && typeof output.result === 'object' ? output.result : {}) as Record<string, unknown>;
    const task = logs.sampleTask(env.tasks(), line.index ?? output.index, result);
    if (!task) throw new LogImportError(entry, `no ${options.env} task for sample index ${JSON.stringify(line.index ?? output.index)}`);
    const initialObservation = await resetObservation(env, task, 0);
    const ownOpening = conversationFor(env, task, { seed: 0, observations: [initialObservation], actions: [] }, { suite: 'agentbench' }).messages(0, []).length;
    const opening = openingLength(logs, history, initialObservation, ownOpening);
    const turns = history.slice(opening) as { role: 'user' | 'agent'; content: string }[];
    const steps: ImportedStep[] = [];
    for (let k = 0; k < turns.length; k++) {
      if (turns[k].role !== 'agent') throw new LogImportError(entry, `expected the agent's reply at history turn ${k + opening}`);
      const answer = turns[k + 1]?.role === 'user' ? turns[k + 1].content : null;
      // What the model was sent: the conversation up to this reply as AgentBench's session sent it (cut to 3,500 segments with its notice).
      const sent = history.slice(0, opening + k).map((h: { role: string; content: string }) => ({ role: h.role === 'agent' ? ('assistant' as const) : ('user' as const), content: h.content }));
      const messages = truncateAgentBench(sent).messages;
      steps.push({
        model: {
          model: options.model,
          calls: [{ messages, reply: turns[k].content, tokens: null, latencyMs: null, finishReason: null, retries: 0 }],
          reply: turns[k].content,
          tokens: null,
          latencyMs: 0,
        },
        action: turns[k].content,
        observation: answer ?? '',
        score: 0,
        reward: 0,
        valid: true,
        terminated: false,
        verify: answer === null ? [] : ['observation'],
      });
      if (answer !== null) k++;
    }
    const status = typeof output.status === 'string' ? output.status : 'unknown';
    const passed = result.result === true || result.is_correct === true;
    if (steps.length > 0) {
      const last = steps[steps.length - 1];
      last.score = passed ? 1 : 0;
      last.reward = last.score;
      last.terminated = status === 'completed';
      if (status === 'completed') last.verify = [...last.verify, 'score'];
    }
    const time = line.time as { timestamp?: unknown } | undefined;
    const at = typeof time?.timestamp === 'number' ? new Date(time.timestamp).toISOString() : undefined;
    out.push(
      importedEpisode({
        id: importedId('agentbench', options.model, task.id),
        env,
        task,
        seed: 0,
        model: options.model,
        protocol: 'agentbench',
        initialObservation,
        steps,
        outcome: { score: passed ? 1 : 0, success: passed, finishReason: STATUS[status] ?? 'Task Error' },
        at,
      }),
    );
  }
  if (out.length === 0) throw new LogImportError(0, 'The file holds no samples.');
  return out;
}
