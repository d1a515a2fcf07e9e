/**
 * A task scored by the subgoal set chosen for it (issue 13 §6): when an annotator has
 * chosen a set on the task's annotation page, each new step records its progress under
 * that set (`subgoalProgress`) next to the environment's own score. Loaded lazily by the
 * play session, so playing costs nothing extra when no set is chosen.
 */
import { getAnnotationStore } from '../store/annotations.ts';
import { builtinSetFor } from './annotation.ts';
import { hasAgentBoardSubgoals, agentboardCredited, compileSet, scoreEpisode, setKey, type CompiledSet, type EpisodeScore, type PredicateEvaluator, type SubgoalSet } from './annotationCore.ts';
import type { StepRecord } from '../../runtime/records.ts';

type History = readonly { action: string; valid: boolean; observation: string }[];

/**
 * A played history scored under a set, with the environment's crediting rule (AgentBoard's
 * environments credit executed actions only): what checking by playing shows, and what each
 * step records under a chosen set. One definition, so the two never disagree.
 */
export function scoreHistory(env: string, set: SubgoalSet | CompiledSet, initial: string, history: History, evaluate?: PredicateEvaluator): EpisodeScore {
  const credited = hasAgentBoardSubgoals(env) ? (h: History[number]) => agentboardCredited(h.action, h.valid) : () => true;
  return scoreEpisode(set, { id: '', initial, steps: history.map((h) => ({ observation: h.observation, credited: credited(h) })) }, evaluate);
}

/** The chosen set of a task, or undefined when the task keeps its own scoring (or the set is gone). */
export async function chosenSet(env: string, task: string): Promise<SubgoalSet | undefined> {
  const store = await getAnnotationStore();
  const key = await store.getScoringSet(env, task);
  if (!key) return undefined;
  const stored = (await store.listSets(env, task)).find((s) => setKey(s) === key);
  if (stored) return stored;
  const builtin = await builtinSetFor(env, task);
  return builtin && setKey(builtin) === key ? builtin : undefined;
}

/**
 * The recorder's stepExtras for a task: progress after history[index] under the chosen
 * set (text matchers only; a state predicate counts as not holding here).
 */
export async function progressRecorder(env: string, task: string, initial: () => string): Promise<((history: History, index: number) => Partial<StepRecord>) | undefined> {
  const set = await chosenSet(env, task);
  if (!set) return undefined;
  const compiled = compileSet(set);
  return (history, index) => {
    const score = scoreHistory(env, compiled, initial(), history.slice(0, index + 1));
    return { subgoalProgress: { set: setKey(set), progress: score.progress[index] ?? 0 } };
  };
}
