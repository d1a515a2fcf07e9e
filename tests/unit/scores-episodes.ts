/** Hand-made episode records for the scores tests. */
import type { DriverKind, EpisodeRecord, StepRecord } from '../../runtime/records.ts';
import type { FinishReason } from '../../envs/core/types.ts';
import type { TaskMeta } from '../../runtime/scores/index.ts';

export interface EpisodeSpec {
  env: string;
  task: string;
  kind?: DriverKind;
  name?: string;
  participant?: string;
  attempt?: number;
  practice?: boolean;
  score?: number;
  success?: boolean | null;
  finishReason?: FinishReason;
  /** Steps: action text, recorded validity, progress. */
  steps?: { action?: string; valid?: boolean; progress?: number }[];
  /** Leave the outcome out (an unfinished episode). */
  unfinished?: boolean;
  startedAt?: string;
}

let counter = 0;

export function episode(spec: EpisodeSpec, id = `ep-${++counter}`): EpisodeRecord {
  const steps: StepRecord[] = (spec.steps ?? []).map((s, i) => ({
    episodeId: id,
    t: i + 1,
    action: s.action ?? 'act',
    observation: '',
    valid: s.valid ?? true,
    reward: 0,
    score: 0,
    terminated: false,
    truncated: false,
    ...(s.progress === undefined ? {} : { progress: s.progress }),
    view: 'text',
    actor: { kind: spec.kind ?? 'human', ...(spec.name ? { name: spec.name } : {}) },
    ms: 1,
    at: '2026-01-01T00:00:00.000Z',
  }));
  const header = {
    format: 2 as const,
    actors: [],
    id,
    env: spec.env,
    task: spec.task,
    seed: 1,
    driver: { kind: spec.kind ?? 'human', ...(spec.name ? { name: spec.name } : {}) },
    view: 'text' as const,
    maxSteps: 30,
    initialObservation: '',
    startedAt: spec.startedAt ?? '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    appVersion: 'test',
    ...(spec.unfinished
      ? {}
      : {
          outcome: {
            score: spec.score ?? 0,
            success: spec.success === undefined ? null : spec.success,
            steps: steps.length,
            finishReason: spec.finishReason ?? 'Complete',
          },
        }),
    // Format v2 fields.
    ...(spec.participant !== undefined ? { participant: spec.participant } : {}),
    ...(spec.attempt !== undefined ? { attempt: spec.attempt } : {}),
    ...(spec.practice !== undefined ? { practice: spec.practice } : {}),
  };
  return { header, steps };
}

/** n episodes with the same spec. */
export function episodes(n: number, spec: EpisodeSpec): EpisodeRecord[] {
  return Array.from({ length: n }, () => episode(spec));
}

const SP = { suite: 'smartplay', suiteName: 'SmartPlay', table: 'smartplay' } as const;
const AB = { suite: 'agentbench', suiteName: 'AgentBench', table: 'agentbench' } as const;
const ABD = { suite: 'agentboard', suiteName: 'AgentBoard', table: 'agentboard' } as const;

/**
 * Task metadata for the tests: SmartPlay games by task id (the paper's column as the task id
 * when it is one), AgentBench 'os'/'db', AgentBoard 'babyai'/'pddl'; task ids carry the
 * DB category or AgentBoard difficulty after a colon ('db:INSERT', 'babyai:easy').
 */
export function testTaskInfo(env: string, task: string): TaskMeta | undefined {
  const [, tag] = task.split(':');
  switch (env) {
    case 'smartplay':
      return { ...SP, column: ['Bandit', 'RPS', 'Hanoi', 'MessengerL1', 'MessengerL2', 'Crafter'].includes(task) ? task : undefined, name: task };
    case 'os':
      return { ...AB, column: 'OS' };
    case 'db':
      return { ...AB, column: 'DB', category: tag ?? 'other' };
    case 'babyai':
      return { ...ABD, column: 'BA', difficulty: tag };
    case 'pddl':
      return { ...ABD, column: 'PL', difficulty: tag };
    case 'babyai-own':
      return { ...ABD, difficulty: 'custom' }; // a task outside the benchmark's set
    default:
      return undefined;
  }
}
