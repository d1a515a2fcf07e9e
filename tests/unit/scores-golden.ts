/**
 * A fixed-seed mix of episodes for the scores golden test (tests/unit/scores-golden.test.ts) and
 * the script that wrote its expected figures (tests/support/make-scores-golden.ts): synthetic
 * episodes over testTaskInfo's tasks, with practice, unfinished, failed-run, excluded and repeated
 * attempts mixed in so every branch of the selection counts.
 */
import { createHash } from 'node:crypto';
import type { EpisodeRecord } from '../../runtime/records.ts';
import type { ScoreOptions } from '../../runtime/scores/index.ts';
import { syntheticEpisodes, type SyntheticTask } from '../../runtime/scores/synthetic.ts';
import { testTaskInfo } from './scores-episodes.ts';

const TASKS: [string, string][] = [
  ['smartplay', 'Bandit'], ['smartplay', 'RPS'], ['smartplay', 'Hanoi'], ['smartplay', 'MessengerL1'], ['smartplay', 'MessengerL2'], ['smartplay', 'Crafter'], ['smartplay', 'Other'],
  ['os', 'os-1'], ['db', 'db-1:INSERT'], ['db', 'db-2:other'], ['db', 'db-3:counting'],
  ['babyai', 'b1:easy'], ['babyai', 'b2:hard'], ['pddl', 'p1:easy'], ['pddl', 'p2:hard'], ['babyai-own', 'own'], ['nowhere', 'x'],
];

export function goldenRecords(n = 2000): EpisodeRecord[] {
  const tasks: SyntheticTask[] = TASKS.map(([env, task]) => ({ env, task, table: testTaskInfo(env, task)?.table ?? 'plain' }));
  const records = syntheticEpisodes(n, tasks, 12, 7);
  records.forEach((r, k) => {
    const h = r.header as EpisodeRecord['header'] & { attempt?: number; practice?: boolean };
    // Shuffled ids (the scoring sorts by id) and start times spread over days.
    h.id = `g${(k * 7919) % 100_003}`;
    for (const s of r.steps) s.episodeId = h.id;
    h.startedAt = new Date(Date.UTC(2026, 0, 1 + (k % 9), k % 24)).toISOString();
    if (h.participant !== undefined && k % 4 !== 0) h.attempt = 1 + (k % 3);
    if (k % 41 === 0) h.practice = true;
    if (k % 59 === 0) delete h.outcome;
    if (k % 67 === 0) {
      delete h.outcome;
      h.infraError = { kind: 'environment', message: 'broke' } as EpisodeRecord['header']['infraError'];
    }
  });
  return records;
}

export const GOLDEN_OPTIONS: Record<string, Omit<ScoreOptions, 'taskInfo'>> = {
  default: { resamples: 200, seed: 3 },
  recordedFirstAttempt: { resamples: 150, seed: 9, humanSource: 'recorded', firstAttemptOnly: true, excluded: new Set(['g7919', 'g15838', 'g23757']) },
};

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
