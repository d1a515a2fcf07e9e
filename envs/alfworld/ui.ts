/** ALFWorld in the app: the house view (receptacles seen, what you hold, the goal) with the commands grouped by verb and searchable. */
import type { EnvUi } from '../core/ui.ts';
import View from './ui/AlfworldView.svelte';

export const ui: EnvUi = {
  View,
  // The view lists the commands itself (dozens in some states), grouped by verb, with a search.
  actionsInView: true,
  keyHints: [
    { keys: '/', does: 'visual view: go to the command search' },
    { keys: 'Enter', does: 'in the command search: play the first command shown' },
    { keys: 'Esc', does: 'in the command search: clear it and leave it' },
  ],
  // Every game's reset and 10 random steps in the page (each game's problem module fetched first, untimed).
  async browserBench() {
    const { measureAlfworld } = await import('./bench.ts');
    const m = await measureAlfworld({ steps: 30 });
    const r = (x: number) => Math.round(x * 100) / 100;
    return {
      'alfworld shared domain and grammar ms (once per page)': r(m.sharedMs),
      'alfworld reset median ms (134 games)': r(m.resetMedianMs),
      'alfworld reset 95th percentile ms': r(m.resetP95Ms),
      'alfworld reset slowest ms': r(m.resetSlowestMs),
      "alfworld the page's first reset ms": r(m.firstResetMs),
      'alfworld reset slowest after the first ms': r(m.resetSlowestWarmMs),
      'alfworld start state grounded in idle time after a reset, median ms': r(m.idleGroundMedianMs),
      'alfworld start state grounded in idle time after a reset, slowest ms': r(m.idleGroundSlowestMs),
      'alfworld step, median game ms (each game\'s mean step)': r(m.gameStepMedianMs),
      'alfworld step, slowest game ms': r(m.gameStepSlowestMs),
      'alfworld step, slowest game': m.gameStepSlowestGame,
      'alfworld reset slowest after the first, game': m.resetSlowestWarmGame,
      'alfworld step median ms': r(m.stepMedianMs),
      'alfworld the slowest game played long (1,000 steps), median ms': r(m.long.medianMs),
      'alfworld the slowest game played long, 99th percentile ms': r(m.long.p99Ms),
      'alfworld the slowest game played long, slowest step ms': r(m.long.slowestMs),
      'alfworld the slowest game played long, slowest 30 steps in a row, mean ms': r(m.long.slowestWindowMeanMs),
      'alfworld step 99th percentile ms': r(m.stepP99Ms),
      'alfworld step slowest ms': r(m.stepSlowestMs),
    };
  },
};
