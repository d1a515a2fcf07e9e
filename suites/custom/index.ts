/**
 * Games from no paper: a plain conversation (the manual, then the observations and the replies
 * as turns; the reply is the action), every task played 10 times, and a table of their own (mean
 * score and success rate per task with intervals) with no published rows beside it.
 */
import type { Suite } from '../../envs/core/suite.ts';
import { agentbenchConversation } from '../../envs/core/prompts/index.ts';

/** No benchmark fixes a count: ten seeds a task give an interval worth reading. */
const EPISODES = 10;

export const suite: Suite = {
  id: 'custom',
  name: 'Custom',
  summary: 'Games from no paper: a plain conversation and a table of their own.',
  // The manual, then observations and replies as turns: AgentBench's conversation shape, with nothing cut.
  prompt(ctx) {
    const messages = agentbenchConversation({ instruction: ctx.manual, observations: ctx.observations, actions: ctx.actions });
    return { suite: 'custom', calls: 1, messages: () => messages.map((m) => ({ ...m })), action: (replies) => replies[0] ?? '', defaults: {} };
  },
  sampling: () => ({}),
  batchDefaults: () => ({ episodes: EPISODES, wholeSet: false, why: `No benchmark fixes a count for this game: ${EPISODES} episodes per task.` }),
  defaultTasks: (env) => env.tasks(),
  progress: false,
  table: 'plain',
  summaryMetrics: ['meanScore', 'successRate'],
};
