/** Synthetic recorded episodes for the scoring benchmarks (Node and the browser bench). */
import type { DriverKind, EpisodeRecord, StepRecord } from '../records.ts';
import type { FinishReason } from '../../envs/core/types.ts';
import { Rng } from '../../envs/core/rng.ts';
import type { ScoreTableKind } from './types.ts';

export interface SyntheticTask {
  env: string;
  task: string;
  /** The table the task counts in (its suite's). */
  table: ScoreTableKind;
}

const PLAYERS: { kind: DriverKind; name?: string; participant?: string }[] = [
  ...Array.from({ length: 10 }, (_, i) => ({ kind: 'human' as const, participant: `p${i}` })),
  { kind: 'random' },
  { kind: 'oracle' },
  { kind: 'model', name: 'model-a' },
  { kind: 'model', name: 'model-b' },
  { kind: 'model', name: 'model-c' },
];
const REASONS: FinishReason[] = ['Complete', 'Task Limit Exceeded', 'Invalid Format', 'Given Up'];

/**
 * n synthetic episodes of `steps` steps over the given tasks, played by 10 people, random,
 * oracle and 3 models (seeded: the same call gives the same episodes).
 */
export function syntheticEpisodes(n: number, tasks: readonly SyntheticTask[], steps = 30, seed = 42): EpisodeRecord[] {
  const STEPS = steps;
  const rng = Rng.fromSeed(seed);
  return Array.from({ length: n }, (_, k) => {
    const { env, task, table } = tasks[rng.below(tasks.length)];
    const player = PLAYERS[rng.below(PLAYERS.length)];
    const id = `e${k}`;
    let progress = 0;
    const steps: StepRecord[] = Array.from({ length: STEPS }, (_, i) => {
      if (rng.uniform() < 0.1) progress = Math.min(1, progress + 0.25);
      return {
        episodeId: id,
        t: i + 1,
        action: rng.uniform() < 0.05 ? 'check valid actions' : 'go forward',
        observation: 'You see a wall.',
        valid: rng.uniform() < 0.8,
        reward: 0,
        score: progress,
        terminated: false,
        truncated: false,
        progress: table === 'agentboard' ? progress : undefined,
        view: 'text',
        actor: { kind: player.kind, name: player.name },
        ms: 1,
        at: '2026-01-01T00:00:00Z',
      };
    });
    return {
      header: {
        format: 2,
        actors: [{ kind: player.kind, name: player.name }],
        id,
        env,
        task,
        seed: k,
        driver: { kind: player.kind, name: player.name },
        view: 'text',
        maxSteps: STEPS,
        initialObservation: '',
        startedAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
        // Time on task: 1 to 10 minutes.
        endedAt: new Date(Date.UTC(2026, 0, 1) + (60 + rng.below(540)) * 1000).toISOString(),
        appVersion: 'bench',
        outcome: {
          score: table === 'smartplay' ? rng.below(50) : progress,
          success: table === 'smartplay' ? null : rng.uniform() < 0.4,
          steps: STEPS,
          finishReason: REASONS[rng.below(REASONS.length)],
        },
        ...(player.participant ? { participant: player.participant } : {}),
      } as EpisodeRecord['header'],
      steps,
    };
  });
}

