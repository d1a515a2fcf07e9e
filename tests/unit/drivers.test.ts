/**
 * Model and scripted drivers against real environments (Hanoi) and a tiny
 * AgentBoard-protocol echo environment, with a fake ChatClient.
 */
import { describe, expect, it } from 'vitest';
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { hanoi } from '../../envs/hanoi/index.ts';
import { ModelError, createOpenAIClient, type ChatClient, type ChatRequest, type ChatResult } from '../../runtime/models/index.ts';
import { modelDriverInfo, resolveSampling, runModelDriver, runScriptedDriver, scriptedDriverInfo } from '../../runtime/drivers/index.ts';
import { ModelTurnSchema } from '../../runtime/records.ts';
import * as v from 'valibot';
import { suiteById } from '../../suites/index.ts';

const Q1 = "What is the best action to take? Let's think step by step, ";
const Q2 = 'Choose the best executable action from the list of all actions. Write the exact chosen action.';
const PLAN = [
  'Move the top disk of rod A to the top of rod C',
  'Move the top disk of rod A to the top of rod B',
  'Move the top disk of rod C to the top of rod B',
  'Move the top disk of rod A to the top of rod C',
  'Move the top disk of rod B to the top of rod A',
  'Move the top disk of rod B to the top of rod C',
  'Move the top disk of rod A to the top of rod C',
];
const H3 = hanoi.tasks().find((t) => t.id === 'hanoi-3')!;

type Answer = (request: ChatRequest, call: number) => string | Promise<string>;

class FakeModel implements ChatClient {
  readonly kind = 'fake' as const;
  readonly model = 'fake-1';
  readonly endpointHost = 'fake.local';
  readonly requests: ChatRequest[] = [];
  constructor(private answer: Answer) {}
  async complete(request: ChatRequest): Promise<ChatResult> {
    this.requests.push(request);
    const text = await this.answer(request, this.requests.length);
    request.onDelta?.(text, text);
    return { text, usage: { promptTokens: 10, completionTokens: 5 }, latencyMs: 2, finishReason: 'stop' };
  }
}

/** Thinks on the first question, then answers the next move of the plan. */
function hanoiPlayer(): FakeModel {
  let move = 0;
  return new FakeModel((req) => {
    const last = req.messages[req.messages.length - 1].content;
    if (last === Q1) return 'The smallest disk should go first.';
    if (last === Q2) return `I choose: ${PLAN[move++]}.`;
    throw new Error(`unexpected question ${last}`);
  });
}

describe('model driver (SmartPlay protocol)', () => {
  it('solves Hanoi3Disk, recording the prompts, replies, tokens and latency of each step', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const model = hanoiPlayer();
    const deltas: string[] = [];
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: model, temperature: 0, onDelta: (d) => deltas.push(`${d.step}.${d.call}`) });
    expect(result).toEqual({ stop: 'finished', steps: 7, finishReason: 'Complete' });
    const snap = actor.getSnapshot();
    expect(snap.output).toMatchObject({ success: true, steps: 7, finishReason: 'Complete', score: 3 });
    expect(model.requests).toHaveLength(14);
    expect(model.requests[0].temperature).toBe(0);
    expect(deltas.slice(0, 4)).toEqual(['1.0', '1.1', '2.0', '2.1']);

    const history = snap.context.history;
    expect(history.map((h) => h.action)).toEqual(PLAN.map((p) => `I choose: ${p}.`));
    expect(history[1].actor).toEqual({ kind: 'model', name: 'fake-1' });
    expect(history[1].view).toBe('text');
    const turn = history[1].model!;
    expect(turn.model).toBe('fake-1');
    expect(turn.calls).toHaveLength(2);
    expect(turn.calls[0].messages).toEqual([
      { role: 'system', content: 'You’re a player trying to play the game.' },
      { role: 'system', content: hanoi.manual(H3) },
      {
        role: 'system',
        content: "Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\nCurrent configuration:\n- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|",
      },
      {
        role: 'system',
        content: 'current step observation: You tried to move the top disk of rod a to the top of rod c. Current configuration:\n- A: |bottom, [2, 1], top|\n- B: |bottom, [], top|\n- C: |bottom, [0], top|',
      },
      { role: 'user', content: Q1 },
    ]);
    expect(turn.calls[1].messages.slice(4)).toEqual([
      { role: 'user', content: Q1 },
      { role: 'assistant', content: 'The smallest disk should go first.' },
      { role: 'user', content: Q2 },
    ]);
    expect(turn.calls.map((c) => c.reply)).toEqual(['The smallest disk should go first.', `I choose: ${PLAN[1]}.`]);
    expect(turn.reply).toBe(`I choose: ${PLAN[1]}.`);
    expect(turn.tokens).toEqual({ prompt: 20, completion: 10 });
    expect(turn.calls.map((c) => c.tokens)).toEqual([
      { prompt: 10, completion: 5 },
      { prompt: 10, completion: 5 },
    ]);
    expect(turn.latencyMs).toBe(4);
    expect(turn.calls.map((c) => [c.finishReason, c.retries])).toEqual([
      ['stop', 0],
      ['stop', 0],
    ]);
    // The model turn is a valid record as it stands (it is stored as is).
    expect(v.parse(ModelTurnSchema, JSON.parse(JSON.stringify(turn)))).toEqual(turn);
    expect(history[0].model).toBeDefined();
  });

  it('stops cleanly when aborted during a model call, sending nothing for that step', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const controller = new AbortController();
    let move = 0;
    const model = new FakeModel((req, n) => {
      if (n === 3) {
        setTimeout(() => controller.abort(), 5);
        return new Promise<string>((_, reject) => req.signal!.addEventListener('abort', () => reject(new ModelError('aborted'))));
      }
      return req.messages[req.messages.length - 1].content === Q1 ? 'think' : PLAN[move++];
    });
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: model, signal: controller.signal });
    expect(result).toEqual({ stop: 'aborted', steps: 1 });
    const snap = actor.getSnapshot();
    expect(snap.status).toBe('active');
    expect(snap.context.history).toHaveLength(1);
  });

  it('returns at once when the signal is already aborted', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const controller = new AbortController();
    controller.abort();
    const model = hanoiPlayer();
    expect(await runModelDriver({ actor, env: hanoi, task: H3, client: model, signal: controller.signal })).toEqual({ stop: 'aborted', steps: 0 });
    expect(model.requests).toHaveLength(0);
  });

  it('stops with an auth error, keeping the steps already taken and the episode open', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    let move = 0;
    const model = new FakeModel((req, n) => {
      if (n === 4) throw new ModelError('auth', 'HTTP 401: invalid key', { status: 401 });
      return req.messages[req.messages.length - 1].content === Q1 ? 'think' : PLAN[move++];
    });
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: model });
    expect(result.stop).toBe('error');
    expect(result.steps).toBe(1);
    expect((result.error as ModelError).kind).toBe('auth');
    expect(result.error!.message).toContain('HTTP 401');
    const snap = actor.getSnapshot();
    expect(snap.status).toBe('active');
    expect(snap.context.history).toHaveLength(1);
  });

  it('ends the episode as Context Limit Exceeded on a context-limit error that cutting the history cannot cure', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    let move = 0;
    const model = new FakeModel((req, n) => {
      // From the fifth request on, nothing fits, whatever is cut.
      if (n >= 5) throw new ModelError('context-limit', "HTTP 400: This model's maximum context length is 4097 tokens", { status: 400 });
      return req.messages[req.messages.length - 1].content === Q1 ? 'think' : PLAN[move++];
    });
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: model });
    expect(result.stop).toBe('finished');
    expect(result.finishReason).toBe('Context Limit Exceeded');
    expect((result.error as ModelError).kind).toBe('context-limit');
    const snap = actor.getSnapshot();
    expect(snap.status).toBe('done');
    expect(snap.output).toMatchObject({ steps: 2, finishReason: 'Context Limit Exceeded', success: false });
    expect(snap.context.error).toContain('maximum context length');
  });

  it('keeps to its own step budget', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: hanoiPlayer(), maxSteps: 3 });
    expect(result).toEqual({ stop: 'step-budget', steps: 3 });
    expect(actor.getSnapshot().context.history).toHaveLength(3);
  });

  it('sends nothing when the episode ended while the model was answering', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const model = new FakeModel(() => {
      actor.send({ type: 'GIVE_UP' });
      return 'think';
    });
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: model });
    expect(result).toEqual({ stop: 'finished', steps: 0, finishReason: 'Given Up' });
    expect(actor.getSnapshot().context.history).toHaveLength(0);
  });
});

/** A one-task echo environment with the AgentBoard protocol: the goal is to say "done". */
interface EchoState {
  said: string[];
}
const echo: EnvDefinition<EchoState> = {
  id: 'echo',
  title: 'Echo',
  suites: [{ suite: 'agentboard' }],
  summary: 'test',
  conversation: () => ({}),
  limitKind: 'limit',
  tasks: () => [{ id: 'echo-1', name: 'echo' }],
  manual: () => 'Say done.',
  maxSteps: () => 5,
  reset: () => ({ state: { said: [] }, observation: 'You are in a room.', score: 0 }),
  step: (state, text) => ({
    state: { said: [...state.said, text] },
    observation: `You said ${text}.`,
    reward: 0,
    valid: true,
    terminated: text === 'done',
    truncated: false,
    score: text === 'done' ? 1 : 0,
  }),
  validActions: () => ['done', 'wait'],
  success: (s) => s.said.includes('done'),
};
const ECHO_TASK: TaskInfo = echo.tasks()[0];

describe('model driver (AgentBoard protocol)', () => {
  it("sends the reply's first line with AgentBoard's prompt and sampling", async () => {
    const actor = startEpisode(echo, ECHO_TASK, { seed: 0 });
    const model = new FakeModel((_req, n) => (n === 1 ? 'wait\nI will wait first.' : 'done'));
    const params = { agentboard: { system_msg: 'SYS', instruction: 'INSTR\n', examples: [], goal: 'say done' } };
    const result = await runModelDriver({ actor, env: echo, task: ECHO_TASK, client: model, params });
    expect(result).toEqual({ stop: 'finished', steps: 2, finishReason: 'Complete' });
    expect(model.requests[0]).toMatchObject({ temperature: 0, maxTokens: 100, stop: ['\n'] });
    expect(model.requests[1].messages).toEqual([
      { role: 'system', content: 'SYS' },
      {
        role: 'user',
        content:
          'INSTR\nYou should perform actions to accomplish the goal: say done\n' +
          'You should use the following commands for help when your action cannot be understood: check valid actions\n' +
          'Observation: You are in a room.\nAction: wait\nObservation: You said wait.\nAction: ',
      },
    ]);
    const history = actor.getSnapshot().context.history;
    expect(history.map((h) => h.action)).toEqual(['wait', 'done']);
    expect(history[0].model?.reply).toBe('wait\nI will wait first.');
  });
});

describe('scripted driver', () => {
  it('plays the oracle to the solution', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const result = await runScriptedDriver({ actor, env: hanoi, task: H3, kind: 'oracle' });
    expect(result).toEqual({ stop: 'finished', steps: 7, finishReason: 'Complete' });
    const history = actor.getSnapshot().context.history;
    expect(history.map((h) => h.action)).toEqual(PLAN);
    expect(history[0].actor).toEqual({ kind: 'oracle', name: 'oracle policy' });
  });

  it('plays the random policy with a delay until aborted', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 60);
    const result = await runScriptedDriver({ actor, env: hanoi, task: H3, kind: 'random', seed: 3, delayMs: 20, signal: controller.signal });
    expect(result.stop).toBe('aborted');
    expect(result.steps).toBeGreaterThanOrEqual(1);
    expect(result.steps).toBeLessThan(5);
    const history = actor.getSnapshot().context.history;
    expect(history).toHaveLength(result.steps);
    expect(history[0].actor).toEqual({ kind: 'random', name: 'random policy' });
  });

  it('stops when a policy has no action', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    expect(await runScriptedDriver({ actor, env: hanoi, task: H3, policy: () => null })).toEqual({ stop: 'no-action', steps: 0 });
  });

  it('runs the random policy to the step limit', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1, maxSteps: 4 });
    const result = await runScriptedDriver({ actor, env: hanoi, task: H3, kind: 'random', seed: 9 });
    expect(result.stop).toBe('finished');
    expect(result.steps).toBeLessThanOrEqual(4);
    expect((await whenIdle(actor)).status).toBe('done');
  });
});

describe('driver info', () => {
  it('describes a model run without the key', () => {
    const client = createOpenAIClient({ baseUrl: 'https://api.example.com/v1', model: 'gpt-x', apiKey: 'sk-secret-key-123' });
    const info = modelDriverInfo(client, 'smartplay', resolveSampling(suiteById('smartplay'), { temperature: 0.2, maxTokens: 64 }));
    expect(info).toEqual({ kind: 'model', name: 'gpt-x', engine: 'openai', endpointHost: 'api.example.com', params: { temperature: 0.2, maxTokens: 64 }, protocol: 'smartplay' });
    expect(JSON.stringify(info)).not.toContain('sk-secret');
  });

  it("records the benchmark's sampling defaults when the user sets none", () => {
    expect(resolveSampling(suiteById('agentboard'), {})).toEqual({ temperature: 0, maxTokens: 100, stop: ['\n'] });
    expect(resolveSampling(suiteById('agentboard'), {}, { agentboard: { maxTokens: 256 } })).toEqual({ temperature: 0, maxTokens: 256, stop: ['\n'] });
    expect(resolveSampling(suiteById('agentbench'), { maxTokens: 512 })).toEqual({ temperature: 0, maxTokens: 512 });
    expect(resolveSampling(suiteById('smartplay'), {})).toEqual({});
    expect(modelDriverInfo(hanoiPlayer(), 'agentbench', resolveSampling(suiteById('agentbench'), {}))).toEqual({
      kind: 'model',
      name: 'fake-1',
      engine: 'fake',
      endpointHost: 'fake.local',
      params: { temperature: 0 },
      protocol: 'agentbench',
    });
  });

  it('describes scripted runs', () => {
    expect(scriptedDriverInfo('oracle')).toEqual({ kind: 'oracle', name: 'oracle policy' });
    expect(scriptedDriverInfo('random', { seed: 7 })).toEqual({ kind: 'random', name: 'random policy', seed: 7 });
  });
});

describe('StepGate (pause, single step, resume)', () => {
  it('a paused run takes exactly one action per step() and runs on after resume()', async () => {
    const { StepGate } = await import('../../runtime/drivers/index.ts');
    const gate = new StepGate();
    gate.pause();
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const done = runScriptedDriver({ actor, env: hanoi, task: H3, kind: 'oracle', gate });
    const settle = () => new Promise((r) => setTimeout(r, 30));
    await settle();
    expect(actor.getSnapshot().context.history).toHaveLength(0);
    gate.step();
    await settle();
    expect(actor.getSnapshot().context.history).toHaveLength(1);
    gate.step();
    gate.step();
    await settle();
    expect(actor.getSnapshot().context.history).toHaveLength(3);
    gate.resume();
    expect(await done).toMatchObject({ stop: 'finished', steps: 7 });
  });

  it('aborting while paused ends the run without a step', async () => {
    const { StepGate } = await import('../../runtime/drivers/index.ts');
    const gate = new StepGate();
    gate.pause();
    const controller = new AbortController();
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const done = runScriptedDriver({ actor, env: hanoi, task: H3, kind: 'random', gate, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await done).toEqual({ stop: 'aborted', steps: 0 });
  });
});

describe('SmartPlay context overflow', () => {
  /** A model whose context holds `limit` characters of messages; longer prompts get the endpoint's context-limit error. */
  function smallContext(limit: number): FakeModel {
    const player = hanoiPlayer();
    return new FakeModel((req, n) => {
      const size = req.messages.reduce((sum, m) => sum + m.content.length, 0);
      if (size > limit) throw new ModelError('context-limit', `request of ${size} characters exceeds the context of ${limit}`);
      return player.complete(req).then((r) => r.text);
    });
  }

  it('drops the oldest history lines until the prompt fits, records how many, and plays on', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    // Enough for the manual and the current observation, not for a full 5-step history.
    const full = hanoi.manual(H3).length + 900;
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: smallContext(full) });
    expect(result).toEqual({ stop: 'finished', steps: 7, finishReason: 'Complete' });
    const cuts = actor.getSnapshot().context.history.flatMap((h) => h.model!.calls.map((c) => c.historyCut ?? 0));
    expect(cuts.some((c) => c > 0)).toBe(true);
    for (const h of actor.getSnapshot().context.history) {
      for (const call of h.model!.calls) {
        expect(call.messages.reduce((sum, m) => sum + m.content.length, 0)).toBeLessThanOrEqual(full);
      }
    }
  });

  it('ends the episode as Context Limit Exceeded only when even an empty history does not fit', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    const result = await runModelDriver({ actor, env: hanoi, task: H3, client: smallContext(hanoi.manual(H3).length) });
    expect(result.stop).toBe('finished');
    expect(result.finishReason).toBe('Context Limit Exceeded');
    expect(actor.getSnapshot().context.history).toHaveLength(0);
  });
});

describe('the API key is never recorded', () => {
  it('a reply that echoes the key is masked in the record and in the action', async () => {
    const KEY = 'sk-echo-SECRET-123';
    const client = createOpenAIClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'echoer', apiKey: KEY });
    expect(client.redact(`my key is ${KEY}!`)).toBe('my key is [redacted]!');
    // A model behind that client whose replies carry the key.
    const leaky: ChatClient = { kind: 'fake', model: 'echoer', redact: (t) => client.redact(t), complete: async () => ({ text: `I choose: ${PLAN[0]} ${KEY}`, latencyMs: 1, finishReason: 'stop' }) };
    const actor = startEpisode(hanoi, H3, { seed: 1 });
    await runModelDriver({ actor, env: hanoi, task: H3, client: leaky, maxSteps: 2 });
    const history = actor.getSnapshot().context.history;
    expect(history).toHaveLength(2);
    expect(JSON.stringify(history)).not.toContain(KEY);
    expect(history[0].action).toContain('[redacted]');
    // The second question is asked after the (masked) first answer.
    expect(history[1].model!.calls[1].messages.some((m) => m.content.includes('[redacted]'))).toBe(true);
  });
});
