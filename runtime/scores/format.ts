/**
 * A score report as rows: one tidy record per figure (for CSV and charts) and plain-text
 * tables per benchmark (for the CLI). Published rows are marked with their source.
 */
import { orderCategories } from './agentbench.ts';
import type { Estimate } from './bootstrap.ts';
import type { ScoreReport } from './index.ts';
import { SMARTPLAY_CAPABILITIES } from './published.ts';

/**
 * Round to `digits` decimals the way the papers' tables were printed: the binary value, to
 * the nearest (as Python's "%.2f"). SmartPlay's Table 2 follows from Table 4 this way in every
 * cell: (−0.07 + 1) / 2 is 0.46499999999999997 → 0.46, (0.93 + 1) / 2 is 0.9650000000000001 → 0.97.
 */
export function roundTo(x: number, digits: number): number {
  return Number(x.toFixed(digits));
}

/** One figure of a report. `source` is 'computed' for ours, 'published' for a paper's. */
export interface ScoreRecord {
  /** The suite's name ('SmartPlay', 'AgentBench', 'AgentBoard', or a suite from no paper, e.g. 'Custom'). */
  benchmark: string;
  /** The group key ('humans', 'model:gpt-4o', …) or the paper's model name. */
  group: string;
  /** The game, task set or 'all'. */
  set: string;
  /** e.g. 'score', 'normalised', 'successRate', 'accuracy:SELECT', 'finish:Invalid Format', 'progress@5', 'OA'. */
  metric: string;
  value: number | null;
  low: number | null;
  high: number | null;
  n: number | null;
  source: 'computed' | 'published';
}

function computed(benchmark: ScoreRecord['benchmark'], group: string, set: string, metric: string, e: Estimate): ScoreRecord {
  return { benchmark, group, set, metric, value: e.value, low: e.ci?.[0] ?? null, high: e.ci?.[1] ?? null, n: e.n, source: 'computed' };
}

function published(benchmark: ScoreRecord['benchmark'], group: string, set: string, metric: string, value: number | null): ScoreRecord {
  return { benchmark, group, set, metric, value, low: null, high: null, n: null, source: 'published' };
}

/** Every figure of the report, computed then published, as tidy records. */
export function scoreRecords(report: ScoreReport): ScoreRecord[] {
  const out: ScoreRecord[] = [];
  const sp = report.smartplay;
  if (sp) {
    for (const row of sp.rows) {
      for (const g of sp.games) {
        const c = row.cells[g.task];
        if (!c) continue;
        out.push(computed('SmartPlay', row.group.key, g.task, 'score', c.score));
        out.push(computed('SmartPlay', row.group.key, g.task, 'normalised', c.normalised));
      }
      for (const c of row.capabilities) out.push(computed('SmartPlay', row.group.key, 'all', `capability:${c.capability}`, c.value));
    }
    for (const p of sp.published.rows) {
      sp.games.forEach((g, i) => {
        if (p.raw[i] === null) return;
        out.push(published('SmartPlay', p.model, g.task, 'score', p.raw[i]));
        out.push(published('SmartPlay', p.model, g.task, 'normalised', p.normalised[i]));
      });
      for (const c of p.capabilities) out.push(published('SmartPlay', p.model, 'all', `capability:${c.capability}`, c.value));
    }
  }
  const ab = report.agentbench;
  if (ab) {
    for (const row of ab.rows) {
      for (const s of ab.sets) {
        const c = row.cells[s.key];
        if (!c) continue;
        out.push(computed('AgentBench', row.group.key, s.key, 'successRate', c.successRate));
        if (c.overallCatAccuracy) out.push(computed('AgentBench', row.group.key, s.key, 'overall_cat_accuracy', c.overallCatAccuracy));
        for (const a of c.categories ?? []) out.push(computed('AgentBench', row.group.key, s.key, `accuracy:${a.category}`, a.accuracy));
        for (const f of c.finishReasons) out.push(computed('AgentBench', row.group.key, s.key, `finish:${f.label}`, f.share));
      }
      if (row.overall) out.push(computed('AgentBench', row.group.key, 'all', 'OA', row.overall.value));
      for (const f of row.finishReasons) out.push(computed('AgentBench', row.group.key, 'all', `finish:${f.label}`, f.share));
    }
    for (const p of ab.published.rows) {
      ab.sets.forEach((s, i) => {
        if (p.scores[i] !== null) out.push(published('AgentBench', p.model, s.key, 'score', p.scores[i]));
      });
      out.push(published('AgentBench', p.model, 'all', 'OA (8 tasks)', p.OA));
      out.push(published('AgentBench', p.model, 'all', 'OA', p.overallPresent));
    }
  }
  const abd = report.agentboard;
  if (abd) {
    for (const row of abd.rows) {
      for (const s of abd.sets) {
        const c = row.cells[s.key];
        if (!c) continue;
        const g = row.group.key;
        out.push(computed('AgentBoard', g, s.key, 'progressRate', c.progressRate));
        out.push(computed('AgentBoard', g, s.key, 'successRate', c.successRate));
        out.push(computed('AgentBoard', g, s.key, 'groundingAccuracy', c.groundingAccuracy));
        out.push(computed('AgentBoard', g, s.key, 'progressRate:easy', c.easy.progressRate));
        out.push(computed('AgentBoard', g, s.key, 'successRate:easy', c.easy.successRate));
        out.push(computed('AgentBoard', g, s.key, 'progressRate:hard', c.hard.progressRate));
        out.push(computed('AgentBoard', g, s.key, 'successRate:hard', c.hard.successRate));
        for (const p of c.curve) out.push(computed('AgentBoard', g, s.key, `progress@${p.step}`, p.progress));
      }
      if (row.average) {
        out.push(computed('AgentBoard', row.group.key, 'average', 'progressRate', row.average.progressRate));
        out.push(computed('AgentBoard', row.group.key, 'average', 'successRate', row.average.successRate));
      }
    }
    for (const p of abd.published.rows) {
      abd.sets.forEach((s, i) => {
        if (p.progressRate[i] === null) return;
        out.push(published('AgentBoard', p.model, s.key, 'progressRate', p.progressRate[i]));
        out.push(published('AgentBoard', p.model, s.key, 'successRate', p.successRate[i]));
      });
      out.push(published('AgentBoard', p.model, 'average', 'progressRate', p.averagePresent.progressRate));
      out.push(published('AgentBoard', p.model, 'average', 'successRate', p.averagePresent.successRate));
    }
  }
  for (const t of report.plain?.suites ?? []) {
    for (const row of t.rows) {
      for (const task of t.tasks) {
        const c = row.cells[task.key];
        if (!c) continue;
        out.push(computed(t.name, row.group.key, task.key, 'meanScore', c.meanScore));
        out.push(computed(t.name, row.group.key, task.key, 'successRate', c.successRate));
      }
    }
  }
  return out;
}

const CSV_COLUMNS: (keyof ScoreRecord)[] = ['benchmark', 'group', 'set', 'metric', 'value', 'low', 'high', 'n', 'source'];

function csvField(x: unknown): string {
  const s = x === null || x === undefined ? '' : String(x);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The report as CSV: a header line, then one line per figure (full precision). */
export function toCsv(report: ScoreReport): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of scoreRecords(report)) lines.push(CSV_COLUMNS.map((c) => csvField(r[c])).join(','));
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------
// Plain text

/** "0.91 [0.85, 0.97] n=20"; "–" without a value. */
export function formatEstimate(e: Estimate | undefined, digits = 2): string {
  if (!e || e.value === null) return e ? `– n=${e.n}` : '';
  const f = (x: number) => roundTo(x, digits).toFixed(digits);
  return `${f(e.value)} [${e.ci ? `${f(e.ci[0])}, ${f(e.ci[1])}` : '–'}] n=${e.n}`;
}

function formatNumber(x: number | null, digits = 2): string {
  return x === null ? '–' : roundTo(x, digits).toFixed(digits);
}

function table(title: string, header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd();
  return [title, line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The report as plain-text tables, one block per benchmark, published rows marked. */
export function toText(report: ScoreReport): string {
  const blocks: string[] = [];
  const s = report.settings;
  blocks.push(
    `Intervals: ${Math.round(s.level * 100)}% bootstrap, ${s.resamples} resamples, seed ${s.seed}. ` +
      `Groups: ${report.groups.map((g) => `${g.label} (${g.episodes})`).join(', ') || 'none'}.` +
      (report.skipped.length ? ` Left out: ${summariseSkipped(report.skipped)}.` : ''),
  );

  const sp = report.smartplay;
  if (sp) {
    const header = ['group', ...sp.games.flatMap((g) => [`${g.name} score`, `${g.name} normalised`])];
    const rows = sp.rows.map((r) => [
      r.group.label,
      ...sp.games.flatMap((g) => [formatEstimate(r.cells[g.task]?.score), formatEstimate(r.cells[g.task]?.normalised)]),
    ]);
    for (const p of sp.published.rows) {
      rows.push([`published: ${p.model}`, ...sp.games.flatMap((_, i) => [formatNumber(p.raw[i]), formatNumber(p.normalised[i])])]);
    }
    const baselines = sp.games
      .map((g) => `${g.name}: min ${g.min}, human ${g.human ? `${formatNumber(g.human.value)} (${g.human.source})` : '–'}`)
      .join('; ');
    blocks.push(table(`SmartPlay (human baseline: ${sp.humanSource}; ${baselines})`, header, rows));
    const capRows = sp.rows.map((r) => [r.group.label, ...r.capabilities.map((c) => formatEstimate(c.value))]);
    for (const p of sp.published.rows) capRows.push([`published: ${p.model}`, ...p.capabilities.map((c) => formatNumber(c.value))]);
    blocks.push(table('SmartPlay capability scores (games present)', ['group', ...SMARTPLAY_CAPABILITIES], capRows));
    if (sp.notes.length) blocks.push(sp.notes.join('\n'));
    blocks.push(`Published: ${sp.published.source}`);
  }

  const ab = report.agentbench;
  if (ab) {
    const header = ['group', ...ab.sets.map((x) => `${x.name} score %`), 'OA'];
    const rows = ab.rows.map((r) => [
      r.group.label,
      ...ab.sets.map((x) => formatEstimate(r.cells[x.key]?.score)),
      r.overall ? formatEstimate(r.overall.value) : '–',
    ]);
    for (const p of ab.published.rows) rows.push([`published: ${p.model}`, ...p.scores.map((v) => formatNumber(v, 1)), formatNumber(p.overallPresent)]);
    const missing = ab.missing.length ? ` OA over ${ab.sets.filter((x) => x.column).map((x) => x.column).join(', ') || 'no paper task'}; missing: ${ab.missing.join(', ')}.` : '';
    blocks.push(table(`AgentBench (percent; DB = overall_cat_accuracy).${missing}`, header, rows));
    for (const set of ab.sets.filter((x) => x.categorised)) {
      const cats = orderCategories(ab.rows.flatMap((r) => r.cells[set.key]?.categories?.map((c) => c.category) ?? []));
      const catRows = ab.rows
        .filter((r) => r.cells[set.key])
        .map((r) => [r.group.label, ...cats.map((c) => formatEstimate(r.cells[set.key].categories?.find((x) => x.category === c)?.accuracy, 1))]);
      blocks.push(table(`${set.name} accuracy by category (percent)`, ['group', ...cats], catRows));
    }
    const labels = ab.rows[0]?.finishReasons.map((f) => f.label) ?? [];
    const finRows = ab.rows.map((r) => [r.group.label, ...r.finishReasons.map((f) => `${f.count} (${formatNumber(f.share.value, 1)}%)`)]);
    blocks.push(table('AgentBench finish reasons (all task sets)', ['group', ...labels], finRows));
    if (ab.notes.length) blocks.push(ab.notes.join('\n'));
    blocks.push(`Published: ${ab.published.source}`);
  }

  const abd = report.agentboard;
  if (abd) {
    const header = ['group', ...abd.sets.flatMap((x) => [`${x.name} progress %`, `${x.name} success %`, `${x.name} grounding %`]), 'avg progress %', 'avg success %'];
    const rows = abd.rows.map((r) => [
      r.group.label,
      ...abd.sets.flatMap((x) => {
        const c = r.cells[x.key];
        return [formatEstimate(c?.progressRate, 1), formatEstimate(c?.successRate, 1), formatEstimate(c?.groundingAccuracy, 1)];
      }),
      formatEstimate(r.average?.progressRate, 1),
      formatEstimate(r.average?.successRate, 1),
    ]);
    for (const p of abd.published.rows) {
      rows.push([
        `published: ${p.model}`,
        ...abd.sets.flatMap((_, i) => [formatNumber(p.progressRate[i], 1), formatNumber(p.successRate[i], 1), '–']),
        formatNumber(p.averagePresent.progressRate, 1),
        formatNumber(p.averagePresent.successRate, 1),
      ]);
    }
    blocks.push(table('AgentBoard (percent)', header, rows));
    const splitRows = abd.rows.flatMap((r) =>
      abd.sets
        .filter((x) => r.cells[x.key])
        .map((x) => {
          const c = r.cells[x.key];
          return [r.group.label, x.name, formatEstimate(c.easy.progressRate, 1), formatEstimate(c.easy.successRate, 1), formatEstimate(c.hard.progressRate, 1), formatEstimate(c.hard.successRate, 1)];
        }),
    );
    blocks.push(table('AgentBoard easy/hard (percent)', ['group', 'set', 'easy progress', 'easy success', 'hard progress', 'hard success'], splitRows));
    blocks.push(`Published: ${abd.published.source}`);
  }
  for (const t of report.plain?.suites ?? []) {
    const header = ['group', ...t.tasks.flatMap((x) => [`${x.name} mean score`, `${x.name} success %`])];
    const rows = t.rows.map((r) => [r.group.label, ...t.tasks.flatMap((x) => [formatEstimate(r.cells[x.key]?.meanScore), formatEstimate(r.cells[x.key]?.successRate, 1)])]);
    blocks.push(table(`${t.name} (a suite from no paper: its own figures, no published rows)`, header, rows));
  }
  if (!sp && !ab && !abd && !report.plain) blocks.push('No episodes to score.');
  return blocks.join('\n\n') + '\n';
}

function summariseSkipped(skipped: ScoreReport['skipped']): string {
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} ${r}`).join(', ');
}
