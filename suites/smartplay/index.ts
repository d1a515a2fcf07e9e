/**
 * SmartPlay (microsoft/SmartPlay, benchmark v0): two questions per step over the manual and a
 * window of past observations; each game played its recorded number of times; scored by
 * SmartPlay's table (raw and human-normalised scores, capability scores). See README.md here.
 */
import type { Suite } from '../../envs/core/suite.ts';
import { SMARTPLAY_QUESTIONS, cutHistory, nextHistoryCut, smartplayPrompt } from '../../envs/core/prompts/index.ts';

/** SmartPlay's recorded episode counts by upstream game name (its run settings: `iter` per game). */
const EPISODES: Record<string, number> = {
  'BanditTwoArmedHighLowFixed-v0': 20,
  'RockPaperScissorBasic-v0': 20,
  'Hanoi3Disk-v0': 10,
  // Not in the paper's table; played with Hanoi's count.
  'Hanoi4Disk-v0': 10,
  'MessengerL1-v0': 100,
  'MessengerL2-v0': 100,
  // SmartPlay lists L3 with 100 episodes but records no human score for it.
  'MessengerL3-v0': 100,
  'Crafter-v0': 10,
};

/** Without a window of its own an environment shows SmartPlay's usual 50 earlier observations. */
const DEFAULT_WINDOW = 50;

export const suite: Suite = {
  id: 'smartplay',
  name: 'SmartPlay',
  summary: 'Games with a manual, two questions per step; scores normalised to a human baseline.',
  prompt(ctx, params) {
    const prefix = params.smartplay?.internalStepPrefix;
    const observations = prefix === undefined || ctx.observations.length === 0 ? ctx.observations : [prefix + ctx.observations[0], ...ctx.observations];
    const input = { manual: ctx.manual, observations, historyWindow: params.smartplay?.historyWindow ?? DEFAULT_WINDOW };
    return {
      suite: 'smartplay',
      calls: SMARTPLAY_QUESTIONS.length,
      messages: (call, replies) => smartplayPrompt(input, call, replies),
      action: (replies) => replies[SMARTPLAY_QUESTIONS.length - 1] ?? '',
      // SmartPlay's driver fixes no sampling in the repository.
      defaults: {},
    };
  },
  sampling: () => ({}),
  // SmartPlay marks its history as the part an API may cut.
  historyCut: {
    cut: (messages, dropped) => cutHistory(messages, dropped).messages,
    next: (messages, dropped) => {
      const next = nextHistoryCut(messages, dropped);
      return next && { messages: next.messages, droppedLines: next.droppedLines };
    },
  },
  batchDefaults(task) {
    const n = EPISODES[task.name];
    return n
      ? { episodes: n, wholeSet: false, why: `SmartPlay plays ${task.name} ${n} times (its recorded settings).` }
      : { episodes: 20, wholeSet: false, why: `SmartPlay records no count for ${task.name}; 20 episodes, as for most of its games.` };
  },
  // The games of its benchmark v0 (the ones the paper scores).
  defaultTasks: (env) => env.tasks().filter((t) => t.benchmarkV0),
  progress: false,
  table: 'smartplay',
  summaryMetrics: ['score', 'normalised'],
};
