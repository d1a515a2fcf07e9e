/**
 * SmartPlay's scores (README.md, Upstream; the paper's Tables 2 and 4): per game the mean
 * episode score and the human-normalised score (raw − min) / (human − min), and the
 * capability scores Σ_games (level − 1)·normalised / Σ_games (level − 1).
 *
 * A game is a task (hanoi-3 and hanoi-4 are two games). The human baseline is the paper's
 * (the default) or the mean of the recorded human episodes ("humans", pooled); a game the
 * paper gives no column (Hanoi4Disk-v0) is normalised against recorded human play only,
 * with min 0, and its table entry says so.
 */
import { bootstrapMeans, column, type BootstrapOptions, type Estimate, type Statistic, type Stratum } from './bootstrap.ts';
import { HUMANS, type Group } from './facts.ts';
import {
  SMARTPLAY_CAPABILITIES,
  SMARTPLAY_COLUMNS,
  SMARTPLAY_HUMAN,
  SMARTPLAY_LEVELS,
  SMARTPLAY_MIN,
  SMARTPLAY_NORMALISED,
  SMARTPLAY_RAW,
  SMARTPLAY_SOURCE,
  type SmartPlayCapability,
  type SmartPlayColumn,
} from './published.ts';
import type { HumanSource, Scored } from './types.ts';

/** (raw − min) / (human − min); NaN when human equals min. */
export function normalisedScore(raw: number, human: number, min: number): number {
  return human === min ? NaN : (raw - min) / (human - min);
}

/**
 * A capability score from normalised scores per column: Σ (level − 1)·score / Σ (level − 1)
 * over the columns given; NaN when none of them weighs in (every level 1).
 */
export function capabilityScore(normalised: Partial<Record<SmartPlayColumn, number>>, capability: SmartPlayCapability): number {
  const c = SMARTPLAY_CAPABILITIES.indexOf(capability);
  let num = 0;
  let den = 0;
  for (const [col, score] of Object.entries(normalised) as [SmartPlayColumn, number][]) {
    const w = SMARTPLAY_LEVELS[col][c] - 1;
    num += w * score;
    den += w;
  }
  return den === 0 ? NaN : num / den;
}

function isColumn(x: string | undefined): x is SmartPlayColumn {
  return (SMARTPLAY_COLUMNS as readonly string[]).includes(x ?? '');
}

export interface SmartPlayGame {
  /** The task id (one game). */
  task: string;
  /** Upstream name, e.g. 'Hanoi3Disk-v0'. */
  name: string;
  /** The paper's column, or null when the paper has none (Hanoi4Disk-v0). */
  column: SmartPlayColumn | null;
  min: number;
  /** The paper's human score (null without a column). */
  publishedHuman: number | null;
  /** The mean score of the recorded human episodes ("humans" pooled). */
  recordedHuman: Estimate;
  /** The baseline this table normalised with, and where it came from; null when there is none. */
  human: { source: HumanSource; value: number } | null;
  note?: string;
}

export interface SmartPlayCell {
  episodes: number;
  /** Mean episode score (SmartPlay's raw score, Table 4). */
  score: Estimate;
  /** (score − min) / (human − min) (Table 2); value null when the game has no baseline. */
  normalised: Estimate;
}

export interface SmartPlayCapabilityScore {
  capability: SmartPlayCapability;
  value: Estimate;
  /** The columns that weighed in (level > 1 and a normalised score present). */
  columns: SmartPlayColumn[];
}

export interface SmartPlayRow {
  group: Group;
  /** Keyed by task id; a game the group did not play is absent. */
  cells: Record<string, SmartPlayCell>;
  capabilities: SmartPlayCapabilityScore[];
}

export interface PublishedSmartPlayRow {
  model: string;
  /** Aligned with the table's games: Table 4 and Table 2 values, null where the paper has no column. */
  raw: (number | null)[];
  normalised: (number | null)[];
  /**
   * Capability scores over the paper's columns present in this table, from Table 4 through
   * the paper's human and minimum scores (the paper draws these; it prints no numbers).
   */
  capabilities: { capability: SmartPlayCapability; value: number | null }[];
}

export interface SmartPlayTable {
  /** The human source asked for (a game without a paper column always uses recorded play). */
  humanSource: HumanSource;
  games: SmartPlayGame[];
  rows: SmartPlayRow[];
  published: { source: string; rows: PublishedSmartPlayRow[] };
  notes: string[];
}

interface GameData {
  game: SmartPlayGame;
  /** Scores per group key. */
  byGroup: Map<string, number[]>;
}

export function smartplayTable(
  episodes: readonly Scored[],
  groups: readonly Group[],
  humanSource: HumanSource,
  boot: BootstrapOptions,
): SmartPlayTable {
  // Games in the paper's column order, then games without a column by task id.
  const data = new Map<string, GameData>();
  for (const e of episodes) {
    const { task } = e.facts;
    let d = data.get(task);
    if (!d) {
      const col = isColumn(e.meta.column) ? e.meta.column : null;
      d = {
        game: {
          task,
          name: e.meta.name ?? task,
          column: col,
          min: col ? SMARTPLAY_MIN[col] : 0,
          publishedHuman: col ? SMARTPLAY_HUMAN[col] : null,
          recordedHuman: { value: null, n: 0, ci: null },
          human: null,
        },
        byGroup: new Map(),
      };
      data.set(task, d);
    }
    for (const g of e.groups) {
      const list = d.byGroup.get(g.key) ?? [];
      list.push(e.facts.score);
      d.byGroup.set(g.key, list);
    }
  }
  const colRank = (g: SmartPlayGame) => (g.column ? SMARTPLAY_COLUMNS.indexOf(g.column) : SMARTPLAY_COLUMNS.length);
  const games = [...data.values()].sort((a, b) => colRank(a.game) - colRank(b.game) || a.game.task.localeCompare(b.game.task));

  const notes: string[] = [];
  // The baseline per game, and the stratum of human scores when it is recorded.
  const humanStrata = new Map<string, Stratum>();
  for (const { game, byGroup } of games) {
    const humans = byGroup.get(HUMANS.key) ?? [];
    game.recordedHuman = bootstrapMeans(`smartplay|human|${game.task}`, [column(humans)], [(m) => m[0][0]], boot)[0];
    const useRecorded = humanSource === 'recorded' || game.column === null;
    if (useRecorded) {
      if (game.recordedHuman.value !== null) {
        game.human = { source: 'recorded', value: game.recordedHuman.value };
        humanStrata.set(game.task, column(humans));
      }
      if (game.column === null) {
        game.note =
          game.human === null
            ? `${game.name} has no published human score and no recorded human episodes: not normalised.`
            : `${game.name} has no published human or minimum score: normalised against recorded human play (min 0).`;
      } else if (game.human === null) {
        game.note = `No recorded human episodes of ${game.name}: not normalised.`;
      }
    } else {
      game.human = { source: 'published', value: game.publishedHuman as number };
    }
    if (game.note) notes.push(game.note);
  }

  // A paper column whose published cells are not typed in (Crafter): say what the published rows leave out.
  for (const { game } of games) {
    const col = game.column;
    if (col && Object.values(SMARTPLAY_RAW).every((raw) => raw[SMARTPLAY_COLUMNS.indexOf(col)] === null)) {
      notes.push(`The paper's ${col} numbers are not typed in here: the published rows show none for ${game.name}, and their capability scores leave it out.`);
    }
  }

  const rows: SmartPlayRow[] = groups
    .filter((g) => games.some((d) => d.byGroup.has(g.key)))
    .map((group) => smartplayRow(group, games, humanStrata, boot));

  return {
    humanSource,
    games: games.map((d) => d.game),
    rows,
    published: {
      source: SMARTPLAY_SOURCE,
      rows: Object.keys(SMARTPLAY_RAW).map((model) => publishedRow(model, games.map((d) => d.game))),
    },
    notes,
  };
}

function publishedRow(model: string, games: readonly SmartPlayGame[]): PublishedSmartPlayRow {
  const at = (table: Record<string, readonly (number | null)[]>, col: SmartPlayColumn | null) => (col ? table[model][SMARTPLAY_COLUMNS.indexOf(col)] : null);
  const normalised: Partial<Record<SmartPlayColumn, number>> = {};
  for (const { column: col } of games) {
    const raw = at(SMARTPLAY_RAW, col);
    if (col && raw !== null) normalised[col] = normalisedScore(raw, SMARTPLAY_HUMAN[col], SMARTPLAY_MIN[col]);
  }
  return {
    model,
    raw: games.map((g) => at(SMARTPLAY_RAW, g.column)),
    normalised: games.map((g) => at(SMARTPLAY_NORMALISED, g.column)),
    capabilities: SMARTPLAY_CAPABILITIES.map((capability) => {
      const v = capabilityScore(normalised, capability);
      return { capability, value: Number.isFinite(v) ? v : null };
    }),
  };
}

/**
 * A group's figures in one joint bootstrap: a stratum of its scores per game, plus the
 * recorded human scores of games normalised against recorded play (the pooled humans'
 * own row reuses its stratum: against itself it is exactly 1).
 */
function smartplayRow(group: Group, games: readonly GameData[], humanStrata: Map<string, Stratum>, boot: BootstrapOptions): SmartPlayRow {
  const strata: Stratum[] = [];
  const stats: Statistic[] = [];
  const push = (f: Statistic) => stats.push(f) - 1;
  const played: { game: SmartPlayGame; n: number; score: number; normalised: number; norm: Statistic }[] = [];
  for (const { game, byGroup } of games) {
    const scores = byGroup.get(group.key);
    if (!scores) continue;
    strata.push(column(scores));
    const own = strata.length - 1;
    const { min, human } = game;
    let norm: Statistic;
    if (human === null) norm = () => NaN;
    else if (human.source === 'published') norm = (m) => normalisedScore(m[own][0], human.value, min);
    else if (group.key === HUMANS.key) norm = (m) => normalisedScore(m[own][0], m[own][0], min);
    else {
      strata.push(humanStrata.get(game.task) as Stratum);
      const h = strata.length - 1;
      norm = (m) => normalisedScore(m[own][0], m[h][0], min);
    }
    played.push({ game, n: scores.length, score: push((m) => m[own][0]), normalised: push(norm), norm });
  }
  // Capabilities: the games with a paper column and a baseline, weighed by level − 1.
  const weighed = played.filter((p) => p.game.column !== null && p.game.human !== null);
  const capabilityStats = SMARTPLAY_CAPABILITIES.map((_, c) => {
    const terms = weighed
      .map((p) => ({ w: SMARTPLAY_LEVELS[p.game.column as SmartPlayColumn][c] - 1, norm: p.norm }))
      .filter((t) => t.w > 0);
    const den = terms.reduce((a, t) => a + t.w, 0);
    return push((m) => (den === 0 ? NaN : terms.reduce((a, t) => a + t.w * t.norm(m), 0) / den));
  });
  const est = bootstrapMeans(`smartplay|${group.key}`, strata, stats, boot);
  const withN = (e: Estimate, n: number): Estimate => ({ ...e, n });

  const cells: Record<string, SmartPlayCell> = {};
  for (const p of played) cells[p.game.task] = { episodes: p.n, score: withN(est[p.score], p.n), normalised: withN(est[p.normalised], p.n) };
  const capabilities = SMARTPLAY_CAPABILITIES.map((capability, c) => {
    const used = weighed.filter((p) => SMARTPLAY_LEVELS[p.game.column as SmartPlayColumn][c] > 1);
    return {
      capability,
      value: withN(est[capabilityStats[c]], used.reduce((a, p) => a + p.n, 0)),
      columns: used.map((p) => p.game.column as SmartPlayColumn),
    };
  });
  return { group, cells, capabilities };
}
