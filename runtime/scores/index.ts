/**
 * The scoring module: recorded episodes in, each benchmark's own table out (SmartPlay,
 * AgentBench, AgentBoard), per group of players, with n and a seeded bootstrap interval on
 * every figure and the papers' published rows alongside. Pure: no DOM, no environments
 * (the caller says what each task is through `taskInfo`), the same in the app and the CLI.
 */
import type { EpisodeRecord } from '../records.ts';
import { agentboardTable, problemScore, type AgentBoardTable } from './agentboard.ts';
import { agentbenchTable, type AgentBenchTable } from './agentbench.ts';
import { DEFAULT_BOOTSTRAP, type BootstrapOptions } from './bootstrap.ts';
import { episodeFacts, groupOrder, groupsOf, type EpisodeFacts, type Group } from './facts.ts';
import { smartplayTable, type SmartPlayTable } from './smartplay.ts';
import { plainTable, type PlainTable } from './plain.ts';
import type { HumanSource, ScoreOptions, Scored, TaskMeta } from './types.ts';
import type { FinishReason } from '../../envs/core/types.ts';

export type { Estimate, BootstrapOptions } from './bootstrap.ts';
export type { EpisodeFacts, Group, PlayerKind, StepFacts } from './facts.ts';
export type { HumanSource, ScoreOptions, ScoreTableKind, TaskInfoFn, TaskMeta } from './types.ts';
export type * from './smartplay.ts';
export type * from './agentbench.ts';
export type * from './agentboard.ts';
export type * from './plain.ts';
export { episodeFacts, factsOf, groupsOf } from './facts.ts';
export { normalisedScore, capabilityScore } from './smartplay.ts';
export { overallScore, dbKind, FINISH_REASON_LABELS } from './agentbench.ts';
export { averageOver, problemScore } from './agentboard.ts';
export { groundedStep, isHelpAction, stepFacts } from './facts.ts';
export { roundTo, formatEstimate, scoreRecords, toCsv, toText, type ScoreRecord } from './format.ts';
export { taskMeta, type TaskFields } from './taskmeta.ts';
export * as published from './published.ts';

export type SkipReason = 'unfinished' | 'infrastructure failure' | 'practice' | 'excluded' | 'unknown task' | 'later attempt';

export interface GroupSummary extends Group {
  /** Episodes scored for this group. */
  episodes: number;
  /** People only: the participants counted (each attempt is one of `episodes`). */
  participants?: string[];
}

export interface ScoreReport {
  settings: BootstrapOptions & { humanSource: HumanSource; firstAttemptOnly: boolean };
  groups: GroupSummary[];
  smartplay: SmartPlayTable | null;
  agentbench: AgentBenchTable | null;
  agentboard: AgentBoardTable | null;
  /** Suites from no paper, a table each. */
  plain: PlainTable | null;
  /** Episodes left out, each with why. */
  skipped: { id: string; reason: SkipReason }[];
}

/** Why an episode is left out before scoring, or null when it counts. */
function skipReason(f: EpisodeFacts, options: ScoreOptions): SkipReason | null {
  if (options.excluded?.has(f.id)) return 'excluded';
  if (f.practice) return 'practice';
  // Checked before 'unfinished' (such an episode has no outcome) so the report says why.
  if (f.infraFailure) return 'infrastructure failure';
  if (!f.finished) return 'unfinished';
  if (!options.taskInfo(f.env, f.task)) return 'unknown task';
  return null;
}

/** Each person's first attempt per task: the lower attempt number when both have one, else the earlier start. */
function laterAttempts(facts: readonly EpisodeFacts[]): Set<string> {
  const first = new Map<string, EpisodeFacts>();
  for (const f of facts) {
    if (f.player.kind !== 'human') continue;
    const key = `${f.participant ?? ''}\u0000${f.env}\u0000${f.task}`;
    const best = first.get(key);
    const earlier = (a: EpisodeFacts, b: EpisodeFacts) =>
      a.attempt !== undefined && b.attempt !== undefined && a.attempt !== b.attempt ? a.attempt < b.attempt : a.startedAt < b.startedAt;
    if (!best || earlier(f, best)) first.set(key, f);
  }
  const keep = new Set([...first.values()].map((f) => f.id));
  return new Set(facts.filter((f) => f.player.kind === 'human' && !keep.has(f.id)).map((f) => f.id));
}

/** The episodes that count (with each one's task and groups), and those left out with why. */
function selectEpisodes(all: readonly EpisodeFacts[], options: ScoreOptions): { scored: Scored[]; skipped: ScoreReport['skipped'] } {
  const skipped: ScoreReport['skipped'] = [];
  const kept: EpisodeFacts[] = [];
  // Episode id order: the bootstrap draws by position, so the same episodes must give the same
  // intervals however they arrive (a file's order, the store's newest-first, two exports merged).
  const facts = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const f of facts) {
    const reason = skipReason(f, options);
    if (reason) skipped.push({ id: f.id, reason });
    else kept.push(f);
  }
  const later = options.firstAttemptOnly ? laterAttempts(kept) : new Set<string>();
  const scored: Scored[] = [];
  for (const f of kept) {
    if (later.has(f.id)) skipped.push({ id: f.id, reason: 'later attempt' });
    else scored.push({ facts: f, meta: options.taskInfo(f.env, f.task)!, groups: groupsOf(f) });
  }
  return { scored, skipped };
}

/** Every benchmark's table for these episodes. */
export function computeScores(records: readonly EpisodeRecord[], options: ScoreOptions): ScoreReport {
  return reportOf(selectEpisodes(records.map(episodeFacts), options), options);
}

/**
 * The report and the per-episode points from episodes' facts (the scores view keeps facts, not
 * whole episodes), selecting once: the same figures as computeScores and episodePoints.
 */
export function scoreFacts(facts: readonly EpisodeFacts[], options: ScoreOptions): { report: ScoreReport; points: EpisodePoint[] } {
  const selected = selectEpisodes(facts, options);
  return { report: reportOf(selected, options), points: pointsOf(selected.scored) };
}

/**
 * scoreFacts in two steps, selecting once: the report without intervals (values and n, every
 * interval null: no bootstrap, so a fraction of the time), `points()` (made only when asked: the
 * scores view keeps those it has when only the human baseline changed), then `full()`, the report
 * with its intervals, the same as scoreFacts's. The scores view shows the first while the last is
 * computed.
 */
export function scoreFactsInSteps(facts: readonly EpisodeFacts[], options: ScoreOptions): { quick: ScoreReport; points(): EpisodePoint[]; full(): ScoreReport } {
  const selected = selectEpisodes(facts, options);
  return { quick: reportOf(selected, { ...options, resamples: 0 }), points: () => pointsOf(selected.scored), full: () => reportOf(selected, options) };
}

function reportOf({ scored, skipped }: { scored: Scored[]; skipped: ScoreReport['skipped'] }, options: ScoreOptions): ScoreReport {
  const boot: BootstrapOptions = {
    seed: options.seed ?? DEFAULT_BOOTSTRAP.seed,
    resamples: options.resamples ?? DEFAULT_BOOTSTRAP.resamples,
    level: options.level ?? DEFAULT_BOOTSTRAP.level,
  };
  const humanSource = options.humanSource ?? 'published';
  const firstAttemptOnly = options.firstAttemptOnly ?? false;

  const summaries = new Map<string, GroupSummary>();
  for (const e of scored) {
    for (const g of e.groups) {
      const s = summaries.get(g.key) ?? { ...g, episodes: 0 };
      s.episodes++;
      if (g.kind === 'humans' || g.kind === 'human') {
        const p = e.facts.participant;
        if (p !== undefined && !(s.participants ??= []).includes(p)) s.participants.push(p);
      }
      summaries.set(g.key, s);
    }
  }
  const groups = [...summaries.values()].sort(groupOrder);
  const groupList: Group[] = groups.map(({ key, label, kind }) => ({ key, label, kind }));

  const of = (table: string) => scored.filter((e) => e.meta.table === table);
  const sp = of('smartplay');
  const ab = of('agentbench');
  const abd = of('agentboard');
  const plain = of('plain');
  return {
    settings: { ...boot, humanSource, firstAttemptOnly },
    groups,
    smartplay: sp.length ? smartplayTable(sp, groupList, humanSource, boot) : null,
    agentbench: ab.length ? agentbenchTable(ab, groupList, boot) : null,
    agentboard: abd.length ? agentboardTable(abd, groupList, boot) : null,
    plain: plain.length ? plainTable(plain, groupList, boot) : null,
    skipped,
  };
}

/** One scored episode, for charts that show every episode (strip plots, time on task). */
export interface EpisodePoint {
  id: string;
  /** The suite it is scored under (its name, e.g. 'SmartPlay') and the table it counts in. */
  benchmark: string;
  table: TaskMeta['table'];
  env: string;
  task: string;
  /** The table column it counts in: SmartPlay's game (the task id), else the task set ('OS', 'BA', …). */
  set: string;
  /** Keys of the groups it counts in. */
  groups: string[];
  participant?: string;
  /** The episode's score (SmartPlay's raw score). */
  score: number;
  success: boolean | null;
  finishReason: FinishReason | null;
  steps: number;
  /** AgentBoard only, percent: progress at the last step and grounding accuracy. */
  progressRate?: number;
  groundingAccuracy?: number;
  startedAt: string;
  /** Time on task, when the episode recorded its end. */
  durationMs?: number;
}

/** The episodes computeScores counts, one point each, with the same selection (practice, exclusions, attempts). */
export function episodePoints(records: readonly EpisodeRecord[], options: ScoreOptions): EpisodePoint[] {
  return pointsOf(selectEpisodes(records.map(episodeFacts), options).scored);
}

function pointsOf(scored: readonly Scored[]): EpisodePoint[] {
  return scored.map(({ facts: f, meta, groups }) => {
    const point: EpisodePoint = {
      id: f.id,
      benchmark: meta.suiteName,
      table: meta.table,
      env: f.env,
      task: f.task,
      set: meta.table === 'smartplay' || meta.table === 'plain' ? f.task : (meta.column ?? f.env),
      groups: groups.map((g) => g.key),
      participant: f.participant,
      score: f.score,
      success: f.success,
      finishReason: f.finishReason,
      steps: f.steps.grounded.length,
      startedAt: f.startedAt,
      durationMs: f.durationMs,
    };
    if (meta.table === 'agentboard') {
      const p = problemScore(f.steps, f.success);
      point.progressRate = p.progressRate * 100;
      point.groundingAccuracy = p.groundingAccuracy * 100;
    }
    return point;
  });
}
