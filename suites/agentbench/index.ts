/**
 * AgentBench (THUDM/AgentBench, text-prompt version 41e6807): a multi-turn conversation the task
 * opens with its own turns, the raw reply parsed by the task, the history cut to 3,500 segments;
 * every task of the set (dev or test) once; scored by success rate per task and the overall
 * score. See README.md here.
 */
import type { Suite } from '../../envs/core/suite.ts';
import { hasSplits } from '../../envs/core/suite.ts';
import { AGENTBENCH_DEFAULTS, agentbenchPrompt } from '../../envs/core/prompts/index.ts';

export const suite: Suite = {
  id: 'agentbench',
  name: 'AgentBench',
  summary: 'Tasks in real systems (a Linux shell, a MySQL database) as a multi-turn conversation; success rate per task.',
  prompt(ctx, params) {
    const built = agentbenchPrompt({ instruction: ctx.manual, observations: ctx.observations, actions: ctx.actions, ...params.agentbench });
    return {
      suite: 'agentbench',
      calls: 1,
      messages: () => built.messages,
      action: (replies) => replies[0] ?? '',
      defaults: { temperature: AGENTBENCH_DEFAULTS.temperature },
    };
  },
  multiLineReplies: true,
  // Its agents run at temperature 0 (configs/agents/openai-chat.yaml).
  sampling: () => ({ temperature: AGENTBENCH_DEFAULTS.temperature }),
  batchDefaults: () => ({ episodes: 1, wholeSet: true, why: 'AgentBench plays every task of the set once.' }),
  defaultTasks: (env, split) => (hasSplits(env) ? env.tasks().filter((t) => t.split === split) : env.tasks()),
  progress: false,
  table: 'agentbench',
  summaryMetrics: ['successRate', 'overall_cat_accuracy'],
};
