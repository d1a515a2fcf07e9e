/**
 * The published tables of the three papers, typed in from their text (sources: README.md,
 * Upstream). Row and column names are the papers' own.
 *
 * SmartPlay: Wu et al., arXiv 2310.01557v5, Table 4 (raw) and Table 2 (normalised); human and
 *   minimum scores from Appendix D and SmartPlay's evaluation configs.
 * AgentBench: Liu et al., ICLR 2024, Table 3 (test set) and Table 2 (Weight⁻¹).
 * AgentBoard: Ma et al., NeurIPS 2024 Datasets and Benchmarks, Table 3.
 * Challenge levels: SmartPlay's per-game evaluation configs (README.md, Upstream).
 * Published numbers are cited facts with their source; no upstream code is copied.
 */

export const SMARTPLAY_SOURCE =
  'SmartPlay (Wu et al., arXiv 2310.01557v5), Table 2 (normalised) and Table 4 (raw); Appendix D.1 (human baseline: 3 players incl. the authors; 3 rounds of Bandit and RPS, 1 of Hanoi, 5 of MessengerL1/L2) and D.2 (normalisation); Crafter\'s human and minimum scores from SmartPlay\'s src/smartplay/crafter/evaluation.yml';

/**
 * SmartPlay columns in the paper's order (Minecraft left out: not ported). Crafter's human and
 * minimum scores and challenge levels are SmartPlay's (src/smartplay/crafter/evaluation.yml); the
 * paper's Crafter numbers are not typed in here, so its published cells are null.
 */
export const SMARTPLAY_COLUMNS = ['Bandit', 'RPS', 'Hanoi', 'MessengerL1', 'MessengerL2', 'Crafter'] as const;
export type SmartPlayColumn = (typeof SMARTPLAY_COLUMNS)[number];

/** Each column's upstream environment id. */
export const SMARTPLAY_ENV_IDS: Record<SmartPlayColumn, string> = { Bandit: 'BanditTwoArmedHighLowFixed-v0', RPS: 'RockPaperScissorBasic-v0', Hanoi: 'Hanoi3Disk-v0', MessengerL1: 'MessengerL1-v0', MessengerL2: 'MessengerL2-v0', Crafter: 'Crafter-v0' };

/** The normalisation's two anchors per column: the human baseline and the minimum score. */
export const SMARTPLAY_HUMAN: Record<SmartPlayColumn, number> = { Bandit: 45, RPS: 43, Hanoi: 3, MessengerL1: 1, MessengerL2: 1, Crafter: 2680 };
export const SMARTPLAY_MIN: Record<SmartPlayColumn, number> = { Bandit: 0, RPS: 0, Hanoi: 0, MessengerL1: -1, MessengerL2: -1, Crafter: 0 };

/** Table 4: raw mean scores per model, in SMARTPLAY_COLUMNS order (null: not typed in). */
export const SMARTPLAY_RAW: Record<string, readonly (number | null)[]> = {
  'GPT-4-0613': [45.09, 39.25, 2.5, 0.8, 0.85, null],
  'GPT-4-0314': [43.86, 42.05, 2.7, 0.74, 0.93, null],
  'text-davinci-003': [46.92, 17, 1.5, 0.24, -0.07, null],
  'Claude': [32.43, 20.3, 2, -0.12, 0.2, null],
  'Bard': [38.85, 12.9, 2, 0.22, -0.21, null],
  'llama-2-13b': [22.33, 15.05, 1.1, -0.76, -0.745, null],
  'llama-13b': [30.5, 21.4, 1, -0.68, -0.885, null],
  'vicuna-13b': [28.81, 7.1, 0.2, -1, -0.76, null],
};

/** Table 2: normalised scores per model (Table 4 through (raw − min) / (human − min), 2 decimals). */
export const SMARTPLAY_NORMALISED: Record<string, readonly (number | null)[]> = {
  'GPT-4-0613': [1, 0.91, 0.83, 0.9, 0.93, null],
  'GPT-4-0314': [0.97, 0.98, 0.9, 0.87, 0.97, null],
  'text-davinci-003': [1.04, 0.4, 0.5, 0.62, 0.46, null],
  'Claude': [0.72, 0.47, 0.67, 0.44, 0.6, null],
  'Bard': [0.86, 0.3, 0.67, 0.61, 0.4, null],
  'llama-2-13b': [0.5, 0.35, 0.37, 0.12, 0.13, null],
  'llama-13b': [0.68, 0.5, 0.33, 0.16, 0.06, null],
  'vicuna-13b': [0.64, 0.17, 0.07, 0, 0.12, null],
};

/**
 * Challenge level (1–3) of each game per capability (SmartPlay's capability analysis);
 * a capability score weighs each game's normalised score by level − 1.
 */
export const SMARTPLAY_CAPABILITIES = [
  'Error/Mistake Handling',
  'Generalization',
  'Instruction Following',
  'Learning from Interactions',
  'Long Text Understanding',
  'Planning',
  'Understanding the Odds',
  'Reasoning',
  'Spatial Reasoning',
] as const;
export type SmartPlayCapability = (typeof SMARTPLAY_CAPABILITIES)[number];
export const SMARTPLAY_LEVELS: Record<SmartPlayColumn, readonly number[]> = {
  Bandit: [1, 2, 1, 2, 1, 1, 3, 1, 1],
  RPS: [1, 2, 3, 3, 2, 1, 3, 1, 1],
  Hanoi: [2, 1, 2, 1, 2, 3, 1, 3, 1],
  MessengerL1: [1, 2, 2, 1, 3, 1, 2, 1, 2],
  MessengerL2: [1, 2, 2, 1, 3, 2, 2, 2, 2],
  // SmartPlay's evaluation.yml for Crafter gives 4 for two capabilities (weight 3).
  Crafter: [3, 3, 3, 4, 4, 3, 2, 3, 2],
};

export const AGENTBENCH_SOURCE = 'AgentBench (Liu et al., ICLR 2024), Table 3: test set (standard) results; Table 2: Weight^-1 per task';
export const AGENTBENCH_TASKS = ['OS', 'DB', 'KG', 'DCG', 'LTP', 'HH', 'WS', 'WB'] as const;
export type AgentBenchTask = (typeof AGENTBENCH_TASKS)[number];
/** Table 2: Weight⁻¹ per task, the average score of all models on it (percent). */
export const AGENTBENCH_WEIGHT_INVERSE: Record<AgentBenchTask, number> = { OS: 10.8, DB: 13, KG: 13.9, DCG: 12, LTP: 3.5, HH: 13, WS: 30.7, WB: 11.6 };
/** Table 3: overall score OA and task scores (percent, AGENTBENCH_TASKS order) per model. */
export const AGENTBENCH_ROWS: Record<string, { OA: number; scores: readonly number[] }> = {
  'gpt-4-0613': { OA: 4.01, scores: [42.4, 32, 58.8, 74.5, 16.6, 78, 61.1, 29] },
  'claude-3-opus': { OA: 3.11, scores: [22.9, 51.7, 34.6, 44.5, 14.3, 70, 27.9, 26] },
  'glm-4': { OA: 2.89, scores: [29.2, 42.3, 46.3, 34.1, 14.2, 34, 61.6, 27] },
  'claude-2': { OA: 2.49, scores: [18.1, 27.3, 41.3, 55.5, 8.4, 54, 61.4, 0] },
  'claude-v1.3': { OA: 2.44, scores: [9.7, 22, 38.9, 40.9, 8.2, 58, 55.7, 25] },
  'gpt-3.5-turbo-0613': { OA: 2.32, scores: [32.6, 36.7, 25.9, 33.7, 10.5, 16, 64.1, 20] },
  'text-davinci-003': { OA: 1.71, scores: [20.1, 16.3, 34.9, 3, 7.1, 20, 61.7, 26] },
  'claude-instant-v1.1': { OA: 1.6, scores: [16.7, 18, 20.8, 5.9, 12.6, 30, 49.7, 4] },
  'chat-bison-001': { OA: 1.39, scores: [9.7, 19.7, 23, 16.6, 4.4, 18, 60.5, 12] },
  'text-davinci-002': { OA: 1.25, scores: [8.3, 16.7, 41.5, 11.8, 0.5, 16, 56.3, 9] },
  'llama-2-70b-chat': { OA: 0.78, scores: [9.7, 13, 8, 21.3, 0, 2, 5.6, 19] },
  'guanaco-65b': { OA: 0.54, scores: [8.3, 14.7, 1.9, 0.1, 1.5, 12, 0.9, 10] },
  'codellama-34b-instruct': { OA: 0.96, scores: [2.8, 14, 23.5, 8.4, 0.7, 4, 52.1, 20] },
  'vicuna-33b-v1.3': { OA: 0.73, scores: [15.3, 11, 1.2, 16.3, 1, 6, 23.9, 7] },
  'wizardlm-30b-v1.0': { OA: 0.46, scores: [13.9, 12.7, 2.9, 0.3, 1.8, 6, 4.4, 1] },
  'guanaco-33b': { OA: 0.39, scores: [11.1, 9.3, 3.2, 0.3, 0, 6, 6.2, 5] },
  'vicuna-13b-v1.5': { OA: 0.93, scores: [10.4, 6.7, 9.4, 0.1, 8, 8, 41.7, 12] },
  'llama-2-13b-chat': { OA: 0.77, scores: [4.2, 11.7, 3.6, 26.4, 0, 6, 25.3, 13] },
  'openchat-13b-v3.2': { OA: 0.7, scores: [15.3, 12.3, 5.5, 0.1, 0, 0, 46.9, 15] },
  'wizardlm-13b-v1.2': { OA: 0.66, scores: [9, 12.7, 1.7, 1.9, 0, 10, 43.7, 12] },
  'vicuna-7b-v1.5': { OA: 0.56, scores: [9.7, 8.7, 2.5, 0.3, 6.4, 0, 2.2, 9] },
  'codellama-13b-instruct': { OA: 0.56, scores: [3.5, 9.7, 10.4, 0, 0, 0, 43.8, 14] },
  'codellama-7b-instruct': { OA: 0.5, scores: [4.9, 12.7, 8.2, 0, 0, 2, 25.2, 12] },
  'koala-13b': { OA: 0.34, scores: [3.5, 5, 0.4, 0.1, 4.4, 0, 3.9, 7] },
  'llama-2-7b-chat': { OA: 0.34, scores: [4.2, 8, 2.1, 6.9, 0, 0, 11.6, 7] },
  'codegeex2-6b': { OA: 0.27, scores: [1.4, 0, 4.8, 0.3, 0, 0, 20.9, 11] },
  'dolly-12b-v2': { OA: 0.14, scores: [0, 0, 0, 0.1, 1.2, 0, 0.4, 9] },
  'chatglm-6b-v1.1': { OA: 0.11, scores: [4.9, 0.3, 0, 0, 0, 0, 0.5, 4.9] },
  'oasst-12b-sft-4': { OA: 0.03, scores: [1.4, 0, 0, 0, 0, 0, 0.3, 1] },
};

export const AGENTBOARD_SOURCE = 'AgentBoard (Ma et al., NeurIPS 2024 D&B), Table 3: progress rate / success rate in percent';
/** Table 3 columns; the last, Avg, is the mean of the nine task columns. */
export const AGENTBOARD_COLUMNS = ['ALF', 'SW', 'BA', 'JC', 'PL', 'WS', 'WA', 'TQ', 'TO', 'Avg'] as const;
export type AgentBoardColumn = (typeof AGENTBOARD_COLUMNS)[number];
/** Table 3: progress and success rates (percent, AGENTBOARD_COLUMNS order) per model. */
export const AGENTBOARD_ROWS: Record<string, { progressRate: readonly number[]; successRate: readonly number[] }> = {
  'GPT-4': {
    progressRate: [65.5, 78.8, 70.7, 52.4, 81.2, 76.5, 39.4, 85.1, 80.8, 70],
    successRate: [43.3, 52.2, 56.2, 35, 61.7, 39, 15.1, 68.3, 60, 47.9],
  },
  'Claude2': {
    progressRate: [34.1, 32, 48.1, 20.4, 61.4, 74.6, 36.4, 73.5, 59.6, 48.9],
    successRate: [24.6, 11.1, 37.5, 0, 40, 37.8, 8.6, 48.3, 27.5, 26.2],
  },
  'Gemini 1.5-Flash †': {
    progressRate: [40.9, 17.8, 50.6, 11.1, 23.5, 72.3, 32.4, 73.9, 68.6, 43.5],
    successRate: [15.7, 4.4, 38.4, 0, 6.7, 24.7, 11.1, 46.7, 37.5, 20.6],
  },
  'Claude3-Haiku': {
    progressRate: [20.7, 43.7, 34.4, 34.7, 31.9, 73.6, 26.8, 61.9, 62.4, 43.3],
    successRate: [2.2, 14.4, 24.1, 10, 13.3, 30.3, 12.7, 24, 27.5, 17.6],
  },
  'Llama3-70b': {
    progressRate: [29.6, 30.4, 41.1, 16, 32.2, 74.6, 35.6, 52.6, 65.2, 41.9],
    successRate: [12.7, 7.8, 27.7, 5, 20, 29.9, 12.6, 36.7, 30, 20.2],
  },
  'GPT-3.5-Turbo': {
    progressRate: [35.6, 31.9, 51.7, 19.9, 25, 76.4, 25.5, 69.4, 37.2, 41.4],
    successRate: [17.2, 18.9, 39.3, 5, 5, 35.1, 4.6, 45, 7.5, 19.7],
  },
  'xLAM-70b': {
    progressRate: [53.4, 15.4, 37.7, 16.2, 38.4, 73.6, 34.5, 66.5, 26.5, 40.2],
    successRate: [42.5, 1.1, 28.6, 5, 16.7, 32.7, 11.3, 38.3, 7.5, 20.4],
  },
  'DeepSeek-67b': {
    progressRate: [34.5, 36.1, 31.7, 13.7, 22, 72.7, 23.9, 71.4, 40.5, 38.5],
    successRate: [20.9, 10, 22.3, 0, 6.7, 31.9, 5.7, 40, 17.5, 17.2],
  },
  'Text-Davinci-003': {
    progressRate: [18.8, 28.9, 17.5, 28.6, 31.7, 72.3, 16.2, 65, 56.2, 37.2],
    successRate: [9, 7.8, 14.3, 10, 11.7, 29.5, 2.5, 38.3, 22.5, 16.2],
  },
  'GPT-3.5-Turbo-16k': {
    progressRate: [25.2, 2.2, 45.1, 16.1, 22.6, 73.8, 23.7, 59.1, 39.6, 34.2],
    successRate: [4.5, 0, 33.9, 0, 3.3, 27.9, 6.1, 31.7, 15, 13.6],
  },
  'AgentLM-70b': {
    progressRate: [58.4, 13, 38, 8.8, 13, 72.9, 13, 50.5, 31.8, 33.3],
    successRate: [50.7, 1.1, 27.7, 0, 3.3, 31.1, 5.3, 13.3, 0, 14.7],
  },
  'Lemur-70b': {
    progressRate: [10.8, 33.4, 19.4, 10.1, 9.7, 71.8, 12.2, 72, 37.7, 30.8],
    successRate: [0.7, 5.6, 9.8, 0, 3.3, 11.6, 3.3, 28.3, 12.5, 8.3],
  },
  'CodeLlama-34b': {
    progressRate: [11.3, 3.5, 19.9, 15.5, 18.5, 71.7, 21.2, 60, 48.8, 30],
    successRate: [3, 0, 13.4, 0, 3.3, 23.5, 4.1, 13.3, 7.5, 7.6],
  },
  'Llama3-8b': {
    progressRate: [14.1, 38.8, 36.7, 10.4, 20.1, 68.7, 8.3, 44.2, 28.7, 30],
    successRate: [0.7, 10, 22.3, 0, 3.3, 17.5, 1.6, 0, 0, 6.2],
  },
  'CodeLlama-13b': {
    progressRate: [13.4, 9.6, 22.2, 0, 9.3, 65.5, 17.7, 52.5, 41.8, 25.8],
    successRate: [2.2, 2.2, 17, 0, 1.7, 25.9, 3.7, 25, 12.5, 10],
  },
  'Llama2-70b': {
    progressRate: [13.2, 2.6, 30, 7.8, 8.1, 53.6, 11.6, 48.3, 38.6, 23.8],
    successRate: [3, 0, 19.6, 0, 1.7, 13.1, 3.3, 0, 0, 4.5],
  },
  'Mistral-7b': {
    progressRate: [9.8, 15.8, 20.1, 11, 4.7, 68.2, 13.2, 51, 27.2, 24.6],
    successRate: [0, 2.2, 14.3, 0, 0, 13.9, 1.3, 3.3, 0, 3.9],
  },
  'Vicuna-13b-16k': {
    progressRate: [11, 14.1, 14.3, 15.2, 7.2, 73.3, 11.3, 34.3, 26.9, 23.1],
    successRate: [1.5, 2.2, 5.4, 0, 1.7, 21.9, 2.9, 3.3, 0, 4.3],
  },
  'Llama2-13b': {
    progressRate: [7.8, 1.1, 18.1, 3.2, 4.1, 63.5, 7.9, 35.1, 29.3, 18.9],
    successRate: [0, 0, 6.2, 0, 0, 10.8, 2, 0, 0, 2.1],
  },
};
