/**
 * Writes an AgentBoard log (logs/{task}.jsonl: pretty-printed JSON objects, "Interaction Turn k",
 * turn 0 holding the observation after action 0) of the oracle playing BabyAI problems on our port.
 * Usage: tsx tests/support/make-agentboard-log.ts OUT.jsonl [--tamper K] PROBLEM…
 */
import { writeFileSync } from 'node:fs';
import { getTask, loadEnv } from '../../envs/index.ts';

const [out, ...rest] = process.argv.slice(2);
const tamperAt = rest[0] === '--tamper' ? Number(rest[1]) : -1;
const problems = (tamperAt >= 0 ? rest.slice(2) : rest).map(Number);
const env = await loadEnv('babyai');
let text = '';
for (const id of problems) {
  const task = getTask(env, `babyai-${id}`);
  let { state } = await env.reset(task, 0);
  const trajectory: Record<string, unknown> = {};
  let progress = 0;
  let done = false;
  for (let k = 0; k < 30 && !done; k++) {
    const action = env.oracleAction!(state, task) ?? 'check valid actions';
    const step = await env.step(state, action);
    state = step.state;
    progress = step.score;
    done = step.terminated;
    trajectory[`Interaction Turn ${k}`] = { Goal: 'goal', Observation: k === tamperAt ? 'You see a purple dragon.' : step.observation, Action: action, 'Progress Rate': progress };
  }
  // AgentBoard's record names the problem by its gym id and goal line (the importer matches by them).
  const goal = /^You should perform actions to accomplish the goal: (.*)$/m.exec(env.manual(task))![1];
  text += JSON.stringify({ id, task_name: (task as unknown as { envId: string }).envId, goal, difficulty: 'easy', is_done: done, progress_rate: progress, grounding_acc: 1.0, score_change_record: [], trajectory }, null, 2) + '\n';
}
writeFileSync(out, text);
