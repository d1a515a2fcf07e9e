/**
 * The two test.jsonl fields of a BabyAI problem that the shipped data leaves out, as the
 * environment regenerates them: `goal` = the raw minigrid mission (test.jsonl keeps "then"
 * and "after you"; AgentBoard rewrites them only at run time) and `init_obs` = the reset
 * observation. (Loads the whole BabyAI environment, so it is asked for only when exporting.)
 */
import { babyai, babyaiStart } from '../index.ts';

/** The goal and initial observation of a BabyAI problem, as test.jsonl words them. */
export interface BabyAIRowText {
  goal: string;
  initObs: string;
}

export function babyaiRowText(index: number): BabyAIRowText {
  const task = babyai.tasks()[index];
  if (!task || task.index !== index) throw new RangeError(`no BabyAI problem ${index}`);
  const init = babyai.reset(task, 0) as { observation: string };
  return { goal: babyaiStart(index).mission, initObs: init.observation };
}
