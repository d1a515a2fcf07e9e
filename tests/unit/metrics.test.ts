/**
 * AgentBoard's metrics (envs/core/README.md, "AgentBoard subgoals and metrics"): progress rate, success, grounding accuracy
 * per problem; means and the easy/hard split per task.
 */
import { describe, expect, it } from 'vitest';
import { agentboardResultLine, aggregateMetrics, problemMetrics, type MetricStep } from '../../envs/core/metrics.ts';

const step = (valid: boolean, progress: number | undefined, terminated = false): MetricStep => ({ valid, progress, terminated });

describe('problemMetrics', () => {
  it('takes the last progress, counts valid steps and reads success from the last step', () => {
    const m = problemMetrics([step(true, 0), step(false, 0), step(true, 0.25), step(true, 0.5), step(false, 0.5), step(true, 1, true)]);
    expect(m).toEqual({
      steps: 6,
      success: true,
      progressRate: 1,
      groundingAccuracy: 4 / 6,
      progressChanges: [
        [2, 0.25],
        [3, 0.5],
        [5, 1],
      ],
    });
  });

  it('is not a success when the episode was cut off', () => {
    const m = problemMetrics([step(true, 0.5), step(false, 0.5)]);
    expect(m.success).toBe(false);
    expect(m.progressRate).toBe(0.5);
    expect(m.groundingAccuracy).toBe(0.5);
  });

  it('lets the caller decide success, and handles steps without progress', () => {
    expect(problemMetrics([step(true, undefined, true)], { success: false })).toMatchObject({ success: false, progressRate: 0 });
    expect(problemMetrics([step(true, 0.3), step(true, undefined)]).progressRate).toBe(0.3);
  });

  it('gives zeros for an empty trajectory', () => {
    expect(problemMetrics([])).toEqual({ steps: 0, success: false, progressRate: 0, groundingAccuracy: 0, progressChanges: [] });
  });
});

describe('aggregateMetrics', () => {
  it('averages over problems and over the easy and hard ones', () => {
    const m = aggregateMetrics([
      { success: true, progressRate: 1, groundingAccuracy: 1, difficulty: 'easy' },
      { success: false, progressRate: 0.5, groundingAccuracy: 0.5, difficulty: 'easy' },
      { success: false, progressRate: 0.25, groundingAccuracy: 0.75, difficulty: 'hard' },
      { success: false, progressRate: 0, groundingAccuracy: 0.25 },
    ]);
    expect(m).toEqual({
      problems: 4,
      successRate: 0.25,
      progressRate: 1.75 / 4,
      groundingAccuracy: 2.5 / 4,
      easy: { problems: 2, successRate: 0.5, progressRate: 0.75 },
      hard: { problems: 1, successRate: 0, progressRate: 0.25 },
    });
    expect(agentboardResultLine('pddl', m)).toEqual({
      task_name: 'pddl',
      success_rate: 0.25,
      progress_rate: 1.75 / 4,
      grounding_acc: 2.5 / 4,
      success_rate_hard: 0,
      success_rate_easy: 0.5,
      progress_rate_hard: 0.25,
      progress_rate_easy: 0.75,
    });
  });

  it('gives 0 for an empty split and an empty list', () => {
    const m = aggregateMetrics([{ success: true, progressRate: 1, groundingAccuracy: 1, difficulty: 'easy' }]);
    expect(m.hard).toEqual({ problems: 0, successRate: 0, progressRate: 0 });
    expect(aggregateMetrics([])).toEqual({
      problems: 0,
      successRate: 0,
      progressRate: 0,
      groundingAccuracy: 0,
      easy: { problems: 0, successRate: 0, progressRate: 0 },
      hard: { problems: 0, successRate: 0, progressRate: 0 },
    });
  });
});
