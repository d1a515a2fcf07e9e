/**
 * The benchmarks' own logs as episodes: AgentBoard's logs/{task}.jsonl (a stream of
 * pretty-printed JSON objects, "Interaction Turn k" keys, turn 0 holding the observation
 * after action 0, integer 0 progress before floats) and AgentBench's runs.jsonl
 * ({index, error, info, output: {status, result, history: [{role: user|agent}]}, time}).
 * Logs are written here in those formats from runs of our ports, then imported and verified.
 */
import { describe, expect, it } from 'vitest';
import { getTask, loadEnv } from '../../envs/index.ts';
import { openingTurns } from '../../envs/os/protocol.ts';
import { parseJsonStream, importAgentBoardLog } from '../../runtime/importers/agentboard.ts';
import { importAgentBenchRuns } from '../../runtime/importers/agentbench.ts';
import { detectLogKind, importLog, LogImportError } from '../../runtime/importers/index.ts';
import { verifyEpisode } from '../../runtime/verify.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';

/** Python's json.dumps(record, indent=2) + "\n", as AgentBoard writes each problem. */
const pyDump = (o: unknown) => JSON.stringify(o, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';

/** Run the oracle for `n` steps (plus `extra` actions first) and write AgentBoard's record. */
async function agentBoardRecord(env: EnvDefinition, taskId: string, extra: string[], n: number) {
  const task = getTask(env, taskId);
  let { state } = await env.reset(task, 0);
  const trajectory: Record<string, unknown> = {};
  let progress = 0;
  let done = false;
  const actions = [...extra];
  for (let k = 0; k < n + extra.length && !done; k++) {
    const action = k < extra.length ? actions[k] : env.oracleAction!(state, task)!;
    const step = await env.step(state, action);
    state = step.state;
    progress = step.score;
    done = step.terminated;
    // Turn k: the action and the observation after it (turn 0's initial observation is overwritten: the quirk).
    trajectory[`Interaction Turn ${k}`] = { Goal: 'the goal', Observation: step.observation, Action: action, 'Progress Rate': progress === 0 ? 0 : progress };
  }
  const id = Number(taskId.split('-')[1]);
  // AgentBoard writes the domain (PDDL) or gym id (BabyAI) and the goal line: the importer matches by them.
  const taskName = env.id === 'pddl' ? (task as unknown as { domain: string }).domain : (task as unknown as { envId: string }).envId;
  const goal = /^You should perform actions to accomplish the goal: (.*)$/m.exec(env.manual(task))?.[1] ?? '';
  return { id, task_name: taskName, goal, difficulty: 'easy', is_done: done, progress_rate: progress, grounding_acc: 1.0, score_change_record: [], trajectory };
}

describe('AgentBoard logs', () => {
  it('reads a stream of pretty-printed objects, braces inside strings included', () => {
    const text = '{\n  "a": "}{ \\" ]",\n  "b": [1, {"c": 2}]\n}\n{\n  "d": 0\n}\n';
    expect(parseJsonStream(text)).toEqual([{ a: '}{ " ]', b: [1, { c: 2 }] }, { d: 0 }]);
    expect(() => parseJsonStream('{\n "a": 1\n')).toThrow(/ends inside a record/);
    expect(() => parseJsonStream('{"a": 1}\nnot json')).toThrow(/Entry 2: unexpected text/);
  });

  it('imports a hand-written BabyAI log (integer 0 progress, turn-0 quirk) and verifies it step by step', async () => {
    const env = await loadEnv('babyai');
    const log = pyDump(await agentBoardRecord(env, 'babyai-0', ['check valid actions'], 30)) + pyDump(await agentBoardRecord(env, 'babyai-5', ['turn left', 'turn right', 'turn left'], 0));
    expect(log).toMatch(/"Progress Rate": 0\b/);
    expect(detectLogKind(log)).toBe('agentboard');
    const episodes = await importLog(log, 'results/gpt-4o/logs/babyai.jsonl');
    expect(episodes).toHaveLength(2);
    const [first, second] = episodes;
    expect(first.header).toMatchObject({ env: 'babyai', task: 'babyai-0', driver: { kind: 'model', name: 'gpt-4o', protocol: 'agentboard' }, actors: [{ kind: 'model', name: 'gpt-4o' }] });
    expect(first.steps[0].action).toBe('check valid actions');
    expect(first.steps.every((s) => s.actor.name === 'gpt-4o')).toBe(true);
    expect(first.header.outcome).toMatchObject({ success: true, finishReason: 'Complete', score: 1 });
    expect(second.header.outcome).toMatchObject({ success: false, steps: 3 });
    expect(first.steps.some((s) => s.model)).toBe(false);
    for (const e of episodes) expect(await verifyEpisode(e)).toMatchObject({ kind: 'verified', steps: e.steps.length });
    // The same log imports to the same ids (a second import skips them).
    expect((await importLog(log, 'results/gpt-4o/logs/babyai.jsonl')).map((e) => e.header.id)).toEqual(episodes.map((e) => e.header.id));
  });

  it('a log whose observation differs from the port diverges at that turn', async () => {
    const env = await loadEnv('babyai');
    const record = await agentBoardRecord(env, 'babyai-1', ['turn left', 'turn left', 'turn left', 'turn left'], 0);
    (record.trajectory['Interaction Turn 2'] as { Observation: string }).Observation = 'You see nothing.';
    const [episode] = await importAgentBoardLog(pyDump({ ...record, example_prompt: 'the whole last prompt' }), { env: 'babyai', model: 'm' });
    // An unfinished problem keeps its last prompt: it is what the model saw at the last step.
    expect(episode.steps.at(-1)!.model!.calls[0].messages).toEqual([{ role: 'user', content: 'the whole last prompt' }]);
    expect(await verifyEpisode(episode)).toMatchObject({ kind: 'diverged', step: 3, field: 'observation', recorded: 'You see nothing.' });
  });

  it('PDDL: a valid-action list in another (Python set) order is the same observation', async () => {
    const env = await loadEnv('pddl');
    const record = await agentBoardRecord(env, 'pddl-0', ['check valid actions'], 3);
    const turn0 = record.trajectory['Interaction Turn 0'] as { Observation: string };
    const m = /^Valid actions are: (.*)$/s.exec(turn0.Observation)!;
    turn0.Observation = `Valid actions are: ${m[1].split(', ').reverse().join(', ')}`;
    const [episode] = await importLog(pyDump(record), '/x/logs/pddl.jsonl', { model: 'llama' });
    expect(episode.header.task).toBe('pddl-0');
    expect(await verifyEpisode(episode)).toMatchObject({ kind: 'verified' });
  });

  it('refuses what is not an AgentBoard log, naming the entry', async () => {
    await expect(importAgentBoardLog('{"id": 0, "trajectory": {"Turn 1": {}}}', { env: 'babyai', model: 'm' })).rejects.toThrow(/Entry 1: unexpected trajectory key "Turn 1"/);
    expect(await importAgentBoardLog('{"id": 999, "task_name": "BabyAI-GoToRedBall-v0", "goal": "go nowhere", "trajectory": {}}', { env: 'babyai', model: 'm' })).toEqual([]);
    await expect(importLog('{"x": 1}', 'a.jsonl')).rejects.toBeInstanceOf(LogImportError);
    await expect(importAgentBoardLog('{"id": 0, "trajectory": {}}', { env: 'hanoi', model: 'm' })).rejects.toThrow('AgentBoard logs are imported for babyai and pddl, not "hanoi"');
  });
});

type Turn = { role: string; content: string };

/**
 * An AgentBench history from replies played on our port: the task's opening turns (given the
 * reset observation), then each reply with the environment's answer (the last reply has none).
 */
async function playedHistory(env: EnvDefinition, task: TaskInfo, opening: (observation: string) => Turn[], replies: string[]): Promise<{ history: Turn[]; score: number }> {
  const init = await env.reset(task, 0);
  let state = init.state;
  const history = opening(init.observation);
  let score = 0;
  for (const reply of replies) {
    history.push({ role: 'agent', content: reply });
    const step = await env.step(state, reply);
    state = step.state;
    score = step.score;
    if (!step.terminated) history.push({ role: 'user', content: step.observation });
  }
  env.dispose?.(state);
  return { history, score };
}

/** One line of AgentBench's runs.jsonl for an OS task, from replies played on our port. */
async function osRunLine(taskIndex: number, replies: string[], status = 'completed') {
  const env = await loadEnv('os');
  const task = getTask(env, `os-dev-${String(taskIndex).padStart(2, '0')}`);
  const opening = () => openingTurns((task as unknown as { description: string }).description).map((t) => ({ role: t.role === 'user' ? 'user' : 'agent', content: t.content }));
  const { history, score } = await playedHistory(env, task, opening, replies);
  return {
    index: task.name,
    error: null,
    info: null,
    output: { index: null, status, result: { result: score === 1, file: 'data/os_interaction/data/dev.json', index_in_file: taskIndex }, history },
    time: { timestamp: 1700000000000, str: '2023-11-14 22:13:20' },
  };
}

describe('AgentBench runs.jsonl', () => {
  it('imports OS samples (model from the folder, actor per step) and verifies them', async () => {
    const line = await osRunLine(0, ['Think: look.\n\nAct: bash\n\n```bash\nls /\n```', 'Think: count.\n\nAct: bash\n\n```bash\necho 3\n```', 'Think: done.\n\nAct: answer(3)']);
    const text = JSON.stringify(line) + '\n';
    expect(detectLogKind(text)).toBe('agentbench');
    const [episode] = await importLog(text, 'outputs/2023-11-14/gpt-3.5-turbo/os-dev/runs.jsonl');
    expect((await importLog(text, 'picked.jsonl'))[0].header).toMatchObject({ env: 'os', task: 'os-dev-00' });
    expect(episode.header).toMatchObject({ env: 'os', task: 'os-dev-00', driver: { name: 'gpt-3.5-turbo', protocol: 'agentbench' }, startedAt: '2023-11-14T22:13:20.000Z' });
    expect(episode.steps.map((s) => s.action.split('Act: ')[1].split('\n')[0])).toEqual(['bash', 'bash', 'answer(3)']);
    expect(episode.steps[0].observation).toMatch(/^The output of the OS:/);
    expect(episode.steps[2].info).toMatchObject({ verify: ['score'] });
    // What the model saw: the logged conversation up to each reply (agent turns as assistant messages).
    const sent = episode.steps[1].model!.calls[0].messages;
    expect(sent.at(-1)).toEqual({ role: 'user', content: episode.steps[0].observation });
    expect(sent.at(-2)).toEqual({ role: 'assistant', content: episode.steps[0].action });
    expect(episode.steps[1].model!.reply).toBe(episode.steps[1].action);
    expect(await verifyEpisode(episode)).toMatchObject({ kind: 'verified', steps: 3 });

    const tampered = structuredClone(line);
    tampered.output.history[tampered.output.history.length - 2].content = 'The output of the OS:\n\nnot what ls says';
    const [bad] = await importAgentBenchRuns(JSON.stringify(tampered), { env: 'os', model: 'm' });
    expect(await verifyEpisode(bad)).toMatchObject({ kind: 'diverged', step: 2, field: 'observation' });
  }, 60_000);

  it('maps statuses to finish reasons and refuses malformed lines', async () => {
    const line = await osRunLine(1, ['Act: bash\n\n```bash\nls\n```'], 'task limit reached');
    const [e] = await importAgentBenchRuns(JSON.stringify(line), { env: 'os', model: 'm' });
    expect(e.header.outcome).toMatchObject({ finishReason: 'Task Limit Exceeded', success: false });
    await expect(importAgentBenchRuns('{"index": 0, "output": {"history": [{"role": "system", "content": ""}]}}', { env: 'os', model: 'm' })).rejects.toThrow(/Entry 1: output.history\[0\]/);
    await expect(importAgentBenchRuns('{"index": 0}', { env: 'db', model: 'm' })).rejects.toThrow(/no "output"/);
    await expect(importAgentBenchRuns('{"index": 0}', { env: 'hanoi', model: 'm' })).rejects.toThrow('AgentBench outputs are imported for os and db, not "hanoi"');
  }, 60_000);

  it('imports DB samples (instruction, "Ok.", the question, then the replies) and verifies them', async () => {
    const env = await loadEnv('db');
    const task = getTask(env, 'db-dev-003');
    const opening = (observation: string) => [
      { role: 'user', content: env.manual(task) },
      { role: 'agent', content: 'Ok.' },
      { role: 'user', content: observation },
    ];
    const replies = ['Action: Operation\n```sql\nSELECT 1;\n```', 'Action: Answer\nFinal Answer: ["x"]'];
    const { history, score } = await playedHistory(env, task, opening, replies);
    const line = { index: 3, error: null, info: null, output: { index: 3, status: 'completed', result: { is_correct: score === 1 }, history }, time: { timestamp: 1, str: '' } };
    const [episode] = await importLog(JSON.stringify(line) + '\n', 'out/llama-3/dbbench-std/runs.jsonl');
    expect(episode.header).toMatchObject({ env: 'db', task: 'db-dev-003', driver: { name: 'llama-3' } });
    expect(episode.steps).toHaveLength(2);
    expect(await verifyEpisode(episode)).toMatchObject({ kind: 'verified', steps: 2 });
    // A file picked without AgentBench's folder layout: its opening turns say which environment it is.
    const [picked] = await importLog(JSON.stringify(line) + '\n', 'picked.jsonl', { model: 'llama-3' });
    expect(picked.header).toMatchObject({ env: 'db', task: 'db-dev-003' });
  }, 60_000);
});
