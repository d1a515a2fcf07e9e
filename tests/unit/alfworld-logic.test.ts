/**
 * data/logic.json stores the shared domain and grammar already read, for both wordings (a page's
 * first reset then parses nothing): the stored form must be what reading the stored upstream text
 * gives (games.ts compileLogic), so the engine plays exactly the files' rules and texts.
 */
import { describe, expect, it } from 'vitest';
import logic from '../../envs/alfworld/data/logic.json';
import { compileLogic, GAMES, grammarOf, loadProblem, sharedLogic, worldOf } from '../../envs/alfworld/games.ts';
import { World } from '../../envs/alfworld/world.ts';

describe('ALFWorld shared logic stored compiled', () => {
  for (const wording of ['original', 'patched'] as const) {
    it(`${wording}: the stored form equals reading the text`, () => {
      const read = compileLogic(wording);
      expect((logic as unknown as { compiled: Record<string, unknown> }).compiled[wording]).toEqual(JSON.parse(JSON.stringify(read)));
      const used = sharedLogic(wording);
      expect([...used.domain.types]).toEqual(read.domain.types);
      expect([...used.grammar.rules.keys()]).toEqual(read.grammar.rules.map(([k]) => k));
      expect(used.grammar.actions.get('pickupobject')?.template).toBe('take {o} from {r}');
      expect(used.grammar.actions.has('help')).toBe(wording === 'patched');
    });
  }
  it('the original wording puts, the patched one moves', () => {
    const put = (w: 'original' | 'patched') => sharedLogic(w).grammar.actions.get('putobject')?.template;
    expect(put('original')).toBe('put {o} in/on {r}');
    expect(put('patched')).toBe('move {o} to {r}');
  });
});

describe('ALFWorld games stored with their initial state', () => {
  it('each game\'s stored welcome, first commands and goal check equal working them out (original wording)', async () => {
    for (let g = 0; g < GAMES.length; g++) {
      const problem = await loadProblem(g);
      expect(problem.originalStart, `game ${g}`).toBeDefined();
      const fresh = new World({ domain: sharedLogic('original').domain, grammar: grammarOf(g, 'original'), problem: { ...problem, originalStart: undefined } });
      const worked = { intro: fresh.intro(fresh.initial), admissible: fresh.admissible(fresh.initial), won: fresh.won(fresh.initial) };
      expect(problem.originalStart, `game ${g}`).toEqual(worked);
      // The world a reset uses answers from the stored state, and only for the initial state.
      const used = worldOf(g, 'original');
      expect(used.admissible(used.initial)).toEqual(worked.admissible);
      expect(used.intro(used.initial)).toBe(worked.intro);
    }
  });
  it('the patched wording works its initial state out (nothing stored for it)', async () => {
    await loadProblem(0);
    const patched = worldOf(0, 'patched');
    expect(patched.admissible(patched.initial)).toContain('help');
  });
});
