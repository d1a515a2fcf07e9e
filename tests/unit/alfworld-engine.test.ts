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
import { alfworld } from '../../envs/alfworld/index.ts';
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
      const task = getTask(alfworld, id);
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
