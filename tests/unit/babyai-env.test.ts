/**
 * The `babyai` environment (envs/babyai/index.ts) as AgentBoard runs it: the 112
 * tasks, manual, AgentBoard's action handling and messages, early stop, the
 * progress/done rule, the 30-turn limit through the episode machine, the oracle,
 * determinism, and 10,000 random strings as actions.
 */
import { describe, expect, it } from 'vitest';
import { babyai, makeBabyAI, babyaiManual, type BabyAIState, type BabyAITask } from '../../envs/babyai/index.ts';
import { babyaiMeta } from '../../envs/babyai/meta.ts';
import { matchStyle, initProgress, updateProgress } from '../../envs/babyai/progress.ts';
import { normalizeAction } from '../../envs/babyai/session.ts';
import { readJsonl, readLayouts, readPromptFile } from '../../envs/babyai/tools/ground-truth.ts';
import { playEpisode, resetSync, stepSync, testRandom, withoutMs } from './helpers.ts';
import type { Step } from '../../envs/core/types.ts';
import { worldFromLayout, type ProblemLayout } from '../../envs/babyai/layout.ts';
import { stepWorld } from '../../envs/babyai/step.ts';
import { observe } from '../../envs/babyai/view.ts';
import { scanView } from '../../envs/babyai/text.ts';
import { actionSet, FAITHFUL } from '../../envs/babyai/highlevel.ts';

const TASKS = babyai.tasks();
const LAYOUTS: ProblemLayout[] = readLayouts();
const task = (k: number): BabyAITask => TASKS[k];
const reset = (k: number): BabyAIState => resetSync(babyai, task(k), 0).state;
const step = (s: BabyAIState, text: string): Step<BabyAIState> => stepSync(babyai, s, text);

/** Play the oracle for up to 30 turns directly on the env. */
function oracleEpisode(k: number) {
  let state = reset(k);
  const actions: string[] = [];
  const steps: Step<BabyAIState>[] = [];
  for (let t = 0; t < 30 && !state.done; t++) {
    const a = babyai.oracleAction!(state, task(k));
    if (a === null) break;
    actions.push(a);
    const r = step(state, a);
    steps.push(r);
    state = r.state;
  }
  return { actions, steps, state };
}

describe('babyai environment', () => {
  const tests = readJsonl('test.jsonl');
  const prompt = readPromptFile();

  it('meta and the 112 tasks in AgentBoard order', () => {
    expect(babyaiMeta.id).toBe('babyai');
    expect(babyai.suites).toEqual([{ suite: 'agentboard', column: 'BA' }]);
    expect(babyai.conversation('agentboard', babyai.tasks()[0])).toEqual({ agentboard: { system_msg: 'You are an exploration master that wants to finish every goal you are given.' } });
    expect(babyai.limitKind).toBe('limit');
    expect(TASKS.length).toBe(112);
    TASKS.forEach((t, k) => {
      expect(t.id).toBe(`babyai-${k}`);
      expect(t.name).toBe(`${tests[k].additional_info.subtask} seed ${1234 + (k % 4)}`);
      expect(t.difficulty).toBe(tests[k].difficulty);
      expect(babyai.maxSteps(t)).toBe(30);
    });
    expect(TASKS.filter((t) => t.difficulty === 'easy').length).toBe(86);
  });

  it('manual = VanillaAgent prompt head with the AgentBoard goal', () => {
    const m = babyaiManual(task(56));
    expect(m.startsWith(prompt.instruction + '\nHere are examples:\n' + prompt.examples[0] + '\n')).toBe(true);
    expect(m).toContain('You should perform actions to accomplish the goal: open the red door, and open the blue door\n');
    expect(m.endsWith(
      'You should use the following commands for help when your action cannot be understood: check valid actions\n' +
        'You should use the following commands for help when your action cannot be understood: inventory',
    )).toBe(true);
    expect(babyai.manual(task(0))).toBe(babyaiManual(task(0)));
  });

  it('reset observation equals test.jsonl init_obs for all 112 problems', () => {
    for (let k = 0; k < 112; k++) {
      const init = resetSync(babyai, task(k), 0);
      expect(init.observation, `problem ${k}`).toBe(tests[k].additional_info.init_obs);
      expect(init.score).toBe(0);
    }
  });

  it("AgentBoard's messages: barrier, check, empty, unknown, case and spaces", () => {
    const s0 = reset(0); // facing a wall 1 step away
    let r = step(s0, 'move forward');
    expect(r.valid).toBe(false);
    expect(r.observation).toBe("There is a barrier in front of you, you can't move forward.");
    expect(r.state.world.stepCount).toBe(0);
    r = step(s0, 'Check valid actions');
    expect(r.valid).toBe(true);
    expect(r.observation).toBe('You can take the following actions: turn left, turn right, check available actions');
    r = step(s0, 'check available actions');
    expect(r.observation).toBe('You can take the following actions: turn left, turn right, check available actions');
    r = step(s0, '   ');
    expect(r.valid).toBe(false);
    expect(r.observation).toBe('No change in state.');
    r = step(s0, 'fly away');
    expect(r.valid).toBe(false);
    expect(r.observation).toBe('The action is not recognized. Please check valid actions.');
    r = step(s0, 'drop');
    expect(r.observation).toBe('You cannot drop the object, as you are not carrying anything.');
    // Python's strip(): \x1c and \x85 are whitespace, a BOM is not.
    expect(normalizeAction('\x1cTurn Left\x85 ')).toBe('turn left');
    expect(step(s0, '\ufeffturn left').observation).toBe('The action is not recognized. Please check valid actions.');
    r = step(s0, '  TURN Left \n');
    expect(r.valid).toBe(true);
    expect(r.state.world.stepCount).toBe(1);
    expect(r.state.world.agentDir).toBe(1);
  });

  it('runs a high-level action as its low-level list (problem 5: pickup blue key 1)', () => {
    const s = reset(5);
    expect(babyai.validActions(s)).toContain('pickup blue key 1');
    const r = step(s, 'pickup blue key 1');
    expect(r.info?.executed).toEqual([1, 2, 2, 0, 2, 3]);
    expect(r.state.world.stepCount).toBe(6);
    expect(r.observation.endsWith('You are carrying a blue key.')).toBe(true);
  });

  it('stops a plan early when a low-level action leaves the view unchanged', () => {
    // Find a state facing a closed door at distance 1: "move forward" is offered (doors are no barrier)
    // but does nothing, so the run stops after that one action.
    let found = false;
    for (let k = 0; k < 112 && !found; k++) {
      const { steps } = oracleEpisode(k);
      for (const st of [reset(k), ...steps.map((x) => x.state)]) {
        const names = babyai.validActions(st);
        if (!names.includes('toggle') || !names.includes('move forward')) continue;
        const r = step(st, 'move forward');
        expect(r.info?.executed).toEqual([2]);
        expect(r.state.world.stepCount).toBe(st.world.stepCount + 1);
        expect([...r.state.world.agentPos]).toEqual([...st.world.agentPos]);
        const two = step(st, 'toggle and go through ' + names.find((n) => n.startsWith('toggle and go through'))!.slice(22));
        expect(two.valid).toBe(true);
        found = true;
        break;
      }
    }
    expect(found).toBe(true);
  });

  it('progress: pattern matching, one subgoal per step, alternative lists', () => {
    const obs = 'In front of you in this room, you can see several objects: There is a red ball 1 right in front of you 1 steps away.  The room has walls around you.';
    expect(matchStyle(obs, ' There is a red ball ** right in front of you 1 steps away.')).toBe(true);
    expect(matchStyle(obs, 'There is a red ball **')).toBe(true);
    expect(matchStyle(obs, 'There is a blue ball **')).toBe(false);
    expect(matchStyle(obs, 'There is a red*1 steps away')).toBe(true);
    let p = initProgress([['There is a red ball **', ' There is a red ball ** right in front of you 1 steps away.']], false);
    p = updateProgress(p, obs);
    expect(p.progress).toBe(0.5);
    p = updateProgress(p, obs);
    expect(p.progress).toBe(1);
    // Problem 52: two alternative lists advance together.
    let m = initProgress(
      [
        [' There is a red open door **', ' There is a red closed door **'],
        [' There is a blue open door **', ' There is a blue closed door **'],
      ],
      true,
    );
    m = updateProgress(m, 'There is a blue closed door 1 right in front of you 2 steps away. ');
    expect(m.progress).toBe(0.5);
    expect(m.lists).toEqual([[' There is a red open door **'], [' There is a blue open door **']]);
  });

  it('done needs progress > 0.5: problem 105 finishes in minigrid at 0.4 and goes on', () => {
    const { steps, state } = oracleEpisode(105);
    const hit = steps.find((s) => s.info?.minigridTerminated);
    expect(hit).toBeDefined();
    expect(hit!.terminated).toBe(false);
    expect(hit!.progress).toBeLessThanOrEqual(0.5);
    expect(hit!.observation.endsWith('\n The task is completed.')).toBe(true);
    expect(babyai.success(state)).toBe(false);
  });

  it('the oracle solves at least 105 of 112 problems within 30 turns', { timeout: 120_000 }, () => {
    let solved = 0;
    for (let k = 0; k < 112; k++) {
      const { state, steps } = oracleEpisode(k);
      if (state.done) {
        solved++;
        const last = steps[steps.length - 1];
        expect(last.terminated).toBe(true);
        expect(last.observation.endsWith('\n The task is completed.')).toBe(true);
        expect(last.progress).toBeGreaterThan(0.5);
        expect(steps.reduce((a, s) => a + s.reward, 0)).toBeCloseTo(last.score, 12);
      }
    }
    expect(solved).toBeGreaterThanOrEqual(105);
  });

  it('episode machine: 30 turns, then Task Limit Exceeded; success ends as Complete', async () => {
    const spin = await playEpisode(babyai, task(1), Array(40).fill('turn left'), { seed: 0 });
    expect(spin.context.history.length).toBe(30);
    expect(spin.context.finishReason).toBe('Task Limit Exceeded');
    const { actions } = oracleEpisode(0);
    const win = await playEpisode(babyai, task(0), actions, { seed: 0 });
    expect(win.context.finishReason).toBe('Complete');
    expect(win.output?.success).toBe(true);
    const again = await playEpisode(babyai, task(0), actions, { seed: 7 });
    expect(withoutMs(again.context.history)).toEqual(withoutMs(win.context.history));
  });

  it('is deterministic: the same actions give the same observations and states', () => {
    for (const k of [8, 33, 60, 110]) {
      const a = oracleEpisode(k);
      let s = reset(k);
      const obs: string[] = [];
      for (const act of a.actions) {
        const r = step(s, act);
        obs.push(r.observation);
        s = r.state;
      }
      expect(obs).toEqual(a.steps.map((x) => x.observation));
      expect(s.world).toEqual(a.state.world);
    }
  });

  it('benchmark-faithful dict message, or the door index when asked', () => {
    // Worlds along every ground-truth trajectory, rendered with both options.
    let seen = 0;
    for (const row of readJsonl('trajectories.jsonl')) {
      let w = worldFromLayout(LAYOUTS[row.id]);
      for (const s of row.steps) {
        w = stepWorld(w, s.action).world;
        const scene = scanView(w.agentPos, w.agentDir, w.carrying, observe(w));
        const f = [...actionSet(scene, FAITHFUL).errors];
        const p = [...actionSet(scene, { faithfulErrors: false }).errors];
        expect(p.map(([n]) => n)).toEqual(f.map(([n]) => n));
        f.forEach(([name, msg], n) => {
          if (msg.includes("{'")) {
            seen++;
            expect(p[n][1]).toBe(msg.replace(/\{[^}]*\}/, name.slice(name.lastIndexOf(' ') + 1)));
          } else expect(p[n][1]).toBe(msg);
        });
      }
    }
    expect(seen).toBeGreaterThan(0);
    expect(makeBabyAI({ faithfulErrors: false }).tasks().length).toBe(112);
  });
});

describe('babyai fuzz', () => {
  const RANGES: [number, number][] = [
    [0x20, 0x7e],
    [0x20, 0x7e],
    [0xa0, 0xff],
    [0x391, 0x3c9],
    [0x4e00, 0x4fff],
    [0x300, 0x36f],
    [0x1f300, 0x1f64f],
  ];
  const SPECIALS = ['İ', 'ẞ', 'ſ', 'Σ', '\u200b', '\u202e', '\ufeff', '\n', '\t', 'K', 'check', '**'];

  // 10,000 per level, cycling through the level's four problems.
  for (let level = 0; level < 28; level++) {
  it(`level ${level}: 10,000 random strings as actions never throw and give well-formed steps`, { timeout: 120_000 }, () => {
    const rand = testRandom(2024 + level);
    let k = level * 4;
    let state = reset(k);
    let turns = 0;
    let valid = 0;
    for (let i = 0; i < 10_000; i++) {
      let text: string;
      const kind = rand();
      const names = babyai.validActions(state);
      if (kind < 0.3) text = names[Math.floor(rand() * names.length)];
      else if (kind < 0.35) text = '';
      else {
        const len = Math.floor(rand() * 80);
        text = '';
        for (let c = 0; c < len; c++) {
          if (rand() < 0.05) text += SPECIALS[Math.floor(rand() * SPECIALS.length)];
          else {
            const [lo, hi] = RANGES[Math.floor(rand() * RANGES.length)];
            text += String.fromCodePoint(lo + Math.floor(rand() * (hi - lo + 1)));
          }
        }
        if (kind < 0.6) text = text.slice(0, 5) + names[Math.floor(rand() * names.length)].toUpperCase() + text.slice(5);
      }
      const r = stepSync(babyai, state, text);
      expect(typeof r.observation).toBe('string');
      expect(r.observation.length).toBeGreaterThan(0);
      expect(Number.isFinite(r.reward) && Number.isFinite(r.score)).toBe(true);
      expect(r.progress! >= 0 && r.progress! <= 1).toBe(true);
      if (r.valid) valid++;
      state = r.state;
      turns++;
      if (r.terminated || turns >= 30) {
        k = level * 4 + ((k + 1) % 4);
        state = reset(k);
        turns = 0;
      }
    }
    expect(valid).toBeGreaterThan(1000);
  });
  }
});
