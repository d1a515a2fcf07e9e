/** Crafter in the app: the local view drawn as tiles, vitals, inventory, achievements; keyboard play. */
import type { EnvUi } from '../core/ui.ts';
import View from './ui/CrafterBoard.svelte';
import { crafterKey, CRAFTER_KEY_HINTS } from './keys.ts';

export const ui: EnvUi = {
  View,
  keymap: crafterKey,
  keyHints: CRAFTER_KEY_HINTS,
  // The same figures as bench.ts, in the page: steps/s through the text, env.step and the machine; opening a 10,000-step replay.
  async browserBench() {
    const m = await (await import('./bench.ts')).measureCrafter(1);
    const r = (x: number) => Math.round(x * 100) / 100;
    return {
      'crafter steps/s engine + text (steps timed)': Math.round(m.textStepsOnlyPerSecond),
      'crafter steps/s engine + text (resets included)': Math.round(m.textStepsPerSecond),
      'crafter steps/s through env.step': Math.round(m.envStepsPerSecond),
      'crafter steps/s through the episode machine': Math.round(m.machineStepsPerSecond),
      'crafter reset median ms': r(m.resetMs),
      'crafter replay open ms (10,000 steps)': Math.round(m.replayOpenMs),
      'crafter board of any replay step ms': r(m.boardMs),
      'crafter step from a random earlier state ms': r(m.resumeMs),
    };
  },
};
