/**
 * The ALFWorld engine on the games' own data (envs/alfworld/README.md). Values compared here come
 * from upstream's files: every game's walkthrough (ALFWorld's data) must be admissible step by step
 * and win; the wording reversal must give AgentBench's logic/alfred.twl2 (a verbatim upstream copy,
 * tests/fixtures/upstream/alfworld/alfred.twl2) apart from the per-game task line.
 * Upstream's own outputs (TextWorld + ALFWorld run here) are compared in alfworld-upstream.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GAMES, loadProblem, originalGrammar, walkthroughOf, worldOf } from '../../envs/alfworld/games.ts';
import { demangle } from '../../envs/alfworld/world.ts';
import { alfworld, type AlfTask } from '../../envs/alfworld/index.ts';
import { getTask } from '../../envs/index.ts';
import logic from '../../envs/alfworld/data/logic.json';

describe('ALFWorld games', () => {
  for (const wording of ['patched', 'original'] as const) {
    it(`every one of the 134 walkthroughs is admissible step by step and wins (${wording} wording)`, async () => {
      const failures: string[] = [];
      for (let g = 0; g < GAMES.length; g++) {
        await loadProblem(g);
        const world = worldOf(g, wording);
        let state = world.initial;
        if (world.won(state)) failures.push(`${g}: won at reset`);
        for (const command of walkthroughOf(g, wording)) {
          if (!world.admissible(state).includes(command)) {
            failures.push(`${g}: "${command}" not admissible`);
            break;
          }
          state = world.play(state, command)!.state;
        }
        if (!world.won(state)) failures.push(`${g}: the walkthrough does not win`);
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }

  it('a played state is plain data: its cache is hidden from copies, JSON and comparison, and a state rebuilt from its data plays the same', async () => {
    await loadProblem(0);
    const world = worldOf(0, 'original');
    let state = world.initial;
    for (const command of walkthroughOf(0, 'original').slice(0, 4)) state = world.play(state, command)!.state;
    world.prepare(state);
    expect(Object.keys(state)).toEqual(['facts', 'negs']);
    const copy = structuredClone(state);
    expect(copy).toStrictEqual({ facts: [...state.facts], negs: [...state.negs] });
    expect(JSON.parse(JSON.stringify(state))).toStrictEqual(copy);
    // The copy has no cache: worked out again, it gives the same commands and the same next state.
    expect(world.admissible(copy)).toEqual(world.admissible(state));
    const command = world.admissible(state).find((c) => c.startsWith('go to'))!;
    const a = world.play(state, command)!;
    const b = world.play(copy, command)!;
    expect(b.feedback).toBe(a.feedback);
    expect({ ...b.state }).toStrictEqual({ ...a.state });
  });

  it('reverses ALFWorld 2.1.2\'s patch: the grammar becomes AgentBench\'s alfred.twl2 but for the task line', () => {
    const agentbench = readFileSync(new URL('../fixtures/upstream/alfworld/alfred.twl2', import.meta.url), 'utf8');
    const ours = originalGrammar(logic.grammar).replace('"rhs": "TASK_LINE"', '"rhs": "Your task is to: UNKNOWN GOAL."');
    expect(ours.trimEnd()).toBe(agentbench.trimEnd());
  });

  it('names objects as ALFWorld\'s demangler does: numbered within a name, the first sorted id highest; sink basins', () => {
    const names = demangle(['cabinet_bar__minus_01', 'cabinet_bar__plus_02', 'sink_bar__plus_00_bar_sinkbasin', 'agent1', 'cabinet_bar__minus_00']);
    expect(names.get('cabinet_bar__minus_00')).toBe('cabinet 3');
    expect(names.get('cabinet_bar__minus_01')).toBe('cabinet 2');
    expect(names.get('cabinet_bar__plus_02')).toBe('cabinet 1');
    expect(names.get('sink_bar__plus_00_bar_sinkbasin')).toBe('sinkbasin 1');
    expect(names.get('agent1')).toBe('agent1 ');
  });

  it('answers a command that is not admissible with nothing (upstream: "Nothing happens."), case and spaces as TextWorld reads them', async () => {
    const g = GAMES.findIndex((x) => x.path.includes('pick_and_place_simple'));
    await loadProblem(g);
    const world = worldOf(g, 'original');
    const first = walkthroughOf(g, 'original')[0];
    expect(world.play(world.initial, first.toUpperCase())).toBeNull();
    expect(world.play(world.initial, 'fly to the moon')).toBeNull();
    expect(world.play(world.initial, `  ${first}  `)).not.toBeNull();
  });

  it('the oracle finishes a game from a state off the walkthrough, under both protocols', async () => {
    for (const id of ['alfworld-std-03', 'alfworld-std-12', 'alfworld-std-30', 'alfworld-047', 'alfworld-101']) {
      const task = getTask(alfworld, id) as AlfTask;
      let { state } = await alfworld.reset(task, 0);
      // Three moves off the path first: the oracle must plan from there.
      for (let i = 0; i < 3; i++) {
        const actions = alfworld.validActions(state).filter((a) => !a.includes('check valid'));
        state = (await alfworld.step(state, actions[(i * 5 + 3) % actions.length])).state;
      }
      let steps = 0;
      while (!state.won && steps < 20) {
        const action = alfworld.oracleAction!(state, task);
        expect(action, `${id}: the oracle has a move`).not.toBeNull();
        state = (await alfworld.step(state, action!)).state;
        steps++;
      }
      expect(state.won, `${id} won`).toBe(true);
    }
  }, 60_000);
});

describe('ALFWorld subgoals authored on the annotation pages', () => {
  it('an authored set (regex matchers, as AgentBoard matches its ALFWorld labels with re.search) scores a played episode step by step', async () => {
    const { parseSubgoalSet, scoreEpisode } = await import('../../runtime/annotation/index.ts');
    const task = getTask(alfworld, 'alfworld-std-00') as AlfTask;
    const init = await alfworld.reset(task, 0);
    let state = init.state;
    const observations = [init.observation];
    for (const command of walkthroughOf(task.game, 'original')) {
      const step = await alfworld.step(state, `ACTION: ${command}`);
      state = step.state;
      observations.push(step.observation);
    }
    const parsed = parseSubgoalSet({
      format: 1,
      env: 'alfworld',
      task: task.id,
      author: 'tester',
      version: 1,
      parentVersion: null,
      createdAt: '2026-11-27T00:00:00.000Z',
      crediting: 'subgoal',
      subgoals: [
        { label: 'pencil taken', matcher: { kind: 'regex', source: 'You pick up the pencil \\d' } },
        { label: 'pencil on a shelf', matcher: { kind: 'regex', source: 'You put the pencil \\d in/on the shelf' } },
      ],
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const score = scoreEpisode(parsed.value, { id: 'e', initial: observations[0], steps: observations.slice(1).map((observation) => ({ observation })), success: true });
    expect(score.progress).toEqual([0, 0.5, 0.5, 1]);
    expect(score.fired).toEqual([2, 4]);
  });
});

describe('ALFWorld in the evaluation plan', () => {
  it('plays AgentBench\'s standard list under AgentBench and AgentBoard\'s 134 under AgentBoard', async () => {
    const { planUnits } = await import('../../runtime/eval/index.ts');
    const ab = planUnits([alfworld], { suites: new Map([['alfworld', ['agentbench']]]) });
    expect(ab.map((u) => u.task.id)).toEqual(Array.from({ length: 50 }, (_, i) => `alfworld-std-${String(i).padStart(2, '0')}`));
    expect(planUnits([alfworld], { suites: new Map([['alfworld', ['agentbench']]]), split: 'dev' })).toHaveLength(20);
    const board = planUnits([alfworld], { suites: new Map([['alfworld', ['agentboard']]]) });
    expect(board).toHaveLength(134);
    expect(board.every((u) => /^alfworld-\d{3}$/.test(u.task.id) && u.seed === 0)).toBe(true);
    expect(planUnits([alfworld])).toHaveLength(184);
  });
});

describe('ALFWorld in the scores', () => {
  it("House-Holding lands in AgentBench's HH column and overall score, ALFWorld in AgentBoard's ALF column, with the published rows", async () => {
    const { episode } = await import('./scores-episodes.ts');
    const { catalogueTaskInfo } = await import('../../scripts/scores.ts');
    const { computeScores } = await import('../../runtime/scores/index.ts');
    const records = [
      episode({ env: 'alfworld', task: 'alfworld-std-00', kind: 'model', name: 'tiny', success: true }),
      episode({ env: 'alfworld', task: 'alfworld-std-01', kind: 'model', name: 'tiny', success: false, finishReason: 'Task Limit Exceeded' }),
      episode({ env: 'alfworld', task: 'alfworld-000', kind: 'model', name: 'tiny', success: true, steps: [{ progress: 1 }] }),
    ];
    const report = computeScores(records, { taskInfo: await catalogueTaskInfo(records), seed: 1, resamples: 100 });
    const bench = report.agentbench!;
    expect(bench.sets.map((x) => x.column)).toEqual(['HH']);
    const row = bench.rows[0];
    expect(row.cells.HH.successRate.value).toBeCloseTo(50);
    expect(row.overall?.tasks).toEqual(['HH']);
    expect(bench.published.rows.find((r) => r.model === 'gpt-4-0613')?.scores).toEqual([78]);
    const board = report.agentboard!;
    expect(board.sets.map((x) => x.column)).toEqual(['ALF']);
    const published = board.published.rows.find((r) => r.model === 'GPT-4')!;
    expect(published.successRate).toEqual([43.3]); // AgentBoard Table 3, GPT-4, ALF success rate
  });
});
