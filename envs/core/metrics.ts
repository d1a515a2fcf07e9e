/**
 * AgentBoard's metrics (README.md, "AgentBoard subgoals and metrics"; tasks/*.py evaluate_env and evaluate),
 * computed from recorded steps, for any environment that records `valid`,
 * `progress` and `terminated` (StepRecord and HistoryEntry both do).
 *
 * Per problem:
 *   progress rate     = the progress of the last step (AgentBoard logs the reward of the
 *                       last step, which its environments keep as a running max);
 *   success           = the episode ended done (for PDDL: every goal literal holds);
 *   grounding accuracy = steps whose action was valid / steps taken;
 *   progress changes  = (0-based step, progress) whenever progress rose (score_change_record).
 * Per task: the mean of each over problems, and success and progress rates over the
 * easy and the hard problems separately (0 when a split is empty).
 */

/** What the metrics read from a step. */
export interface MetricStep {
  valid: boolean;
  progress?: number;
  terminated: boolean;
}

export interface ProblemMetrics {
  steps: number;
  success: boolean;
  progressRate: number;
  groundingAccuracy: number;
  /** AgentBoard's score_change_record: [step index from 0, progress] each time progress rose. */
  progressChanges: [number, number][];
}

export interface ProblemResult {
  success: boolean;
  progressRate: number;
  groundingAccuracy: number;
  /** 'easy' or 'hard' (AgentBoard's per-problem label); anything else is in neither split. */
  difficulty?: string;
}

export interface SplitMetrics {
  problems: number;
  successRate: number;
  progressRate: number;
}

export interface TaskMetrics {
  problems: number;
  successRate: number;
  progressRate: number;
  groundingAccuracy: number;
  easy: SplitMetrics;
  hard: SplitMetrics;
}

/**
 * Metrics of one problem from its steps in order. `success` overrides the default
 * (the last step terminated), for environments where ending is not winning.
 */
export function problemMetrics(steps: readonly MetricStep[], options: { success?: boolean } = {}): ProblemMetrics {
  let progressRate = 0;
  let last = 0;
  let valid = 0;
  const progressChanges: [number, number][] = [];
  steps.forEach((step, i) => {
    if (step.valid) valid++;
    if (step.progress !== undefined) {
      progressRate = step.progress;
      if (step.progress > last) progressChanges.push([i, step.progress]);
      last = step.progress;
    }
  });
  const ended = steps.length > 0 && steps[steps.length - 1].terminated;
  return {
    steps: steps.length,
    success: options.success ?? ended,
    progressRate,
    groundingAccuracy: steps.length === 0 ? 0 : valid / steps.length,
    progressChanges,
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

function split(results: readonly ProblemResult[], difficulty: string): SplitMetrics {
  const part = results.filter((r) => r.difficulty === difficulty);
  return {
    problems: part.length,
    successRate: mean(part.map((r) => (r.success ? 1 : 0))),
    progressRate: mean(part.map((r) => r.progressRate)),
  };
}

/** Task-level means over problems, with the easy/hard split (0 for an empty split or list). */
export function aggregateMetrics(results: readonly ProblemResult[]): TaskMetrics {
  return {
    problems: results.length,
    successRate: mean(results.map((r) => (r.success ? 1 : 0))),
    progressRate: mean(results.map((r) => r.progressRate)),
    groundingAccuracy: mean(results.map((r) => r.groundingAccuracy)),
    easy: split(results, 'easy'),
    hard: split(results, 'hard'),
  };
}

/** One line of AgentBoard's all_results.txt for these metrics (its field names and order). */
export function agentboardResultLine(taskName: string, m: TaskMetrics): Record<string, string | number> {
  return {
    task_name: taskName,
    success_rate: m.successRate,
    progress_rate: m.progressRate,
    grounding_acc: m.groundingAccuracy,
    success_rate_hard: m.hard.successRate,
    success_rate_easy: m.easy.successRate,
    progress_rate_hard: m.hard.progressRate,
    progress_rate_easy: m.easy.progressRate,
  };
}
