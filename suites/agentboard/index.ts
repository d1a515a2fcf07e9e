/**
 * AgentBoard (hkust-nlp/AgentBoard): the VanillaAgent's act-only prompt (instruction, examples,
 * goal, help lines and a history window fitted to the context), one line per reply; every
 * problem once; scored by success rate, progress rate and grounding accuracy. See README.md here.
 */
import type { Suite } from '../../envs/core/suite.ts';
import { AGENTBOARD_DEFAULTS, agentboardPrompt, parseAgentBoardReply, type AgentBoardParams } from '../../envs/core/prompts/index.ts';

export const suite: Suite = {
  id: 'agentboard',
  name: 'AgentBoard',
  summary: 'Partially observed tasks with subgoals; progress rate as well as success.',
  prompt(ctx, params) {
    // AgentBoard's eval_main.py never hands the LLM config's use_parser to the agent (only its tool
    // tasks do), so VanillaAgent keeps its default use_parser=True and every reply goes through
    // action_parser_for_special_llms (agentboard/agents/vanilla_agent.py, bb7255e): so here too.
    const { openModelParser = true, ...rest } = params.agentboard ?? {};
    const full: AgentBoardParams = { system_msg: 'You are a helpful assistant.', instruction: ctx.manual, examples: [], ...rest };
    // Without a prompt file the environment's manual is the whole prompt head (BabyAI gives it so).
    if (rest.instruction === undefined && rest.preamble === undefined) full.preamble = ctx.manual.endsWith('\n') ? ctx.manual : `${ctx.manual}\n`;
    full.maxTokens = params.replyBudget ?? full.maxTokens ?? AGENTBOARD_DEFAULTS.maxTokens;
    const built = agentboardPrompt(full, ctx.observations, ctx.actions);
    return {
      suite: 'agentboard',
      calls: 1,
      messages: () => built.messages,
      action: (replies) => parseAgentBoardReply(replies[0] ?? '', openModelParser),
      defaults: { temperature: AGENTBOARD_DEFAULTS.temperature, maxTokens: full.maxTokens, stop: [...AGENTBOARD_DEFAULTS.stop] },
    };
  },
  // The prompt file may set the reply budget.
  sampling: (params) => ({ temperature: AGENTBOARD_DEFAULTS.temperature, maxTokens: params.agentboard?.maxTokens ?? AGENTBOARD_DEFAULTS.maxTokens, stop: [...AGENTBOARD_DEFAULTS.stop] }),
  batchDefaults: () => ({ episodes: 1, wholeSet: true, why: 'AgentBoard plays every problem of the set once.' }),
  defaultTasks: (env) => env.tasks(),
  progress: true,
  table: 'agentboard',
  summaryMetrics: ['progressRate', 'successRate', 'groundingAccuracy'],
};
