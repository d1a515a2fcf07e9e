/**
 * The scores view's charts, drawn as SVG by Observable Plot (loaded with this module, which the
 * view imports lazily). Each builder takes the worker's report and points and returns an SVG
 * element, or null when there is nothing to draw. Group names sit on an axis or beside their
 * line, so no chart needs an HTML legend and each SVG stands alone when exported.
 */
import * as Plot from '@observablehq/plot';
import type { EpisodePoint, ScoreReport } from '../../runtime/scores/index.ts';

export interface ChartInput {
  report: ScoreReport;
  points: EpisodePoint[];
  /** Group keys shown. */
  shown: ReadonlySet<string>;
  width: number;
  /** The text colour as the page resolves it (dots drawn on a canvas cannot use currentColor). */
  ink: string;
  /** A strip of more dots than this is painted as one image (default CANVAS_DOTS; Infinity: SVG circles always, as the tests compare). */
  canvasAbove?: number;
}

export interface ChartSpec {
  id: 'distribution' | 'normalised' | 'progress' | 'time';
  title: string;
  /** What the chart shows, in one or two sentences (also the figure's caption and the SVG's description). */
  caption: string;
  /** Whether the chart shows intervals (it is drawn again when the report's intervals come). */
  intervals: boolean;
  /**
   * The chart, or null when there is nothing to draw. `pause` between panels lets the page
   * handle input and paint (a chart of 10,000 dots drawn at once held it for over 300 ms); it
   * throws when a newer drawing has superseded this one.
   */
  draw(input: ChartInput, pause: () => Promise<void>): Promise<SVGSVGElement | null>;
}

const labelOf = (report: ScoreReport) => {
  const m = new Map(report.groups.map((g) => [g.key, g.label]));
  return (key: string) => m.get(key) ?? key;
};

/** The most specific group an episode counts in (a person rather than "humans"), if shown. */
function ownGroup(p: EpisodePoint, shown: ReadonlySet<string>): string | undefined {
  const own = p.groups[p.groups.length - 1];
  if (shown.has(own)) return own;
  return p.groups.find((g) => shown.has(g));
}

/** An episode's game or task set by its name in the report's tables (looked up once per set, not per episode). */
function setNames(report: ScoreReport): (p: EpisodePoint) => string {
  const names = new Map<string, string>();
  for (const g of report.smartplay?.games ?? []) names.set(`smartplay\u0000${g.task}`, g.name);
  for (const s of report.agentboard?.sets ?? []) names.set(`agentboard\u0000${s.key}`, s.name);
  for (const t of report.plain?.suites.flatMap((x) => x.tasks) ?? []) names.set(`plain\u0000${t.key}`, t.name);
  for (const s of report.agentbench?.sets ?? []) names.set(`agentbench\u0000${s.key}`, s.name);
  return (p) => names.get(`${p.table}\u0000${p.set}`) ?? p.set;
}

/** Above this many dots a panel draws them on a canvas (one image) instead of as one SVG circle each. */
export const CANVAS_DOTS = 400;

/** A disc's coverage of each pixel of its (2r + 2)² square, 4×4 samples a pixel (its anti-aliased edge). */
function discMask(r: number): { size: number; cover: Float32Array } {
  const size = Math.ceil(2 * r) + 2;
  const cover = new Float32Array(size * size);
  const c = size / 2;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) if ((x + (sx + 0.5) / 4 - c) ** 2 + (y + (sy + 0.5) / 4 - c) ** 2 <= r * r) hits++;
      cover[y * size + x] = hits / 16;
    }
  return { size, cover };
}

/** A CSS colour as r, g, b (0–255), as the page resolves it. */
function rgbOf(css: string): [number, number, number] {
  const m = /rgba?\((\d+)[ ,]+(\d+)[ ,]+(\d+)/.exec(css);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
}

/**
 * Plot.dot's render for many dots: the same dots (position, radius, opacity; overlapping dots
 * darken as stacked SVG circles do) painted into the pixels of one image inside the plot's
 * frame. Thousands of circles cost the page their DOM (creating, styling, laying out), and
 * canvas arcs one by one are slow without a GPU; this is one pass over the dots' pixels. The
 * canvas itself sits in the SVG (a foreignObject), showing its pixels at once: encoding them as
 * a PNG for an <image> took 120–140 ms after the charts were drawn. Only the page shows it; a
 * download draws every dot as a circle (canvasAbove: Infinity).
 */
function canvasDots(r: number, opacity: number, ink: string): Plot.RenderFunction {
  return (index, scales, values, dimensions) => {
    const { width, height } = dimensions;
    // The frame and a dot's width around it (a dot at the axis's end shows whole, as in SVG).
    const pad = Math.ceil(r) + 1;
    const marginLeft = Math.max(0, dimensions.marginLeft - pad);
    const marginTop = Math.max(0, dimensions.marginTop - pad);
    const scale = Math.min(2, Math.max(1, Math.round(globalThis.devicePixelRatio || 1)));
    const w = Math.max(1, Math.round((Math.min(width, width - dimensions.marginRight + pad) - marginLeft) * scale));
    const h = Math.max(1, Math.round((Math.min(height, height - dimensions.marginBottom + pad) - marginTop) * scale));
    const X = values.x as ArrayLike<number> | undefined;
    const Y = values.y as ArrayLike<number> | undefined;
    // On a band scale a value is the band's start: a mark sits mid-band, as Plot's SVG dots do.
    const mid = (scale: unknown) => ((scale as { bandwidth?: () => number } | undefined)?.bandwidth?.() ?? 0) / 2;
    const dx = mid(scales.x);
    const dy = mid(scales.y);
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d');
    const pixels = ctx?.createImageData(w, h);
    // The image's bytes (RGBA), each written only where a dot covers it: no pass over the whole frame.
    const data = pixels?.data ?? new Uint8ClampedArray(w * h * 4);
    const [red, green, blue] = rgbOf(ink);
    // Transparency left at each pixel: each dot over it multiplies in (1 − opacity · coverage).
    const clear = new Float32Array(w * h).fill(1);
    const { size, cover } = discMask(r * scale);
    for (const i of index) {
      const cx = ((X ? X[i] + dx : width / 2) - marginLeft) * scale;
      const cy = ((Y ? Y[i] + dy : height / 2) - marginTop) * scale;
      const x0 = Math.round(cx - size / 2);
      const y0 = Math.round(cy - size / 2);
      for (let y = 0; y < size; y++) {
        const py = y0 + y;
        if (py < 0 || py >= h) continue;
        for (let x = 0; x < size; x++) {
          const px = x0 + x;
          const c = cover[y * size + x];
          if (px < 0 || px >= w || c === 0) continue;
          const p = py * w + px;
          const left = (clear[p] *= 1 - opacity * c);
          data[p * 4] = red;
          data[p * 4 + 1] = green;
          data[p * 4 + 2] = blue;
          data[p * 4 + 3] = Math.round((1 - left) * 255);
        }
      }
    }
    if (ctx && pixels) ctx.putImageData(pixels, 0, 0);
    const holder = document.createElementNS(SVG_NS, 'foreignObject');
    holder.setAttribute('x', String(marginLeft));
    holder.setAttribute('y', String(marginTop));
    holder.setAttribute('width', String(w / scale));
    holder.setAttribute('height', String(h / scale));
    canvas.style.cssText = `display:block;width:${w / scale}px;height:${h / scale}px`;
    holder.append(canvas);
    return holder as unknown as SVGElement;
  };
}

/** Plot.dot options for a strip of dots: SVG circles, or one canvas image when there are many. */
function stripDots(count: number, opacity: number, ink: string, canvasAbove = CANVAS_DOTS): Plot.DotOptions {
  const look = { r: 3.5, fill: 'currentColor', fillOpacity: opacity, stroke: null };
  return count > canvasAbove ? { ...look, render: canvasDots(3.5, opacity, ink) } : look;
}

const base = (width: number, rows: number, facets: number): Plot.PlotOptions => ({
  width,
  height: Math.max(90, 50 + facets * Math.max(rows, 1) * 26),
  marginLeft: 150,
  marginRight: 30,
  style: { background: 'transparent', color: 'currentColor', fontSize: '12px' },
});

function svgOf(node: SVGSVGElement | HTMLElement): SVGSVGElement {
  return (node instanceof SVGSVGElement ? node : node.querySelector('svg')!) as SVGSVGElement;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * One panel per game or task set, each with its own scale (a Hanoi score of 3 and a Bandit
 * score of 45 share no axis), stacked under their titles in one SVG so the chart exports whole.
 */
function stack(parts: { title: string; svg: SVGSVGElement }[], width: number): SVGSVGElement | null {
  if (parts.length === 0) return null;
  const outer = document.createElementNS(SVG_NS, 'svg') as SVGSVGElement;
  let y = 0;
  for (const p of parts) {
    const title = document.createElementNS(SVG_NS, 'text');
    title.setAttribute('x', '0');
    title.setAttribute('y', String(y + 16));
    title.setAttribute('fill', 'currentColor');
    title.setAttribute('font-size', '14');
    title.setAttribute('font-weight', '600');
    // "Game: what is shown" as two lines, so a narrow screen keeps the whole title.
    const [head, ...rest] = p.title.split(': ');
    title.textContent = head;
    outer.append(title);
    y += 22;
    if (rest.length) {
      const sub = document.createElementNS(SVG_NS, 'text');
      sub.setAttribute('x', '0');
      sub.setAttribute('y', String(y + 12));
      sub.setAttribute('fill', 'currentColor');
      sub.setAttribute('font-size', '12');
      sub.textContent = rest.join(': ');
      outer.append(sub);
      y += 20;
    }
    const w = Number(p.svg.getAttribute('width'));
    const h = Number(p.svg.getAttribute('height'));
    p.svg.setAttribute('x', '0');
    p.svg.setAttribute('y', String(y));
    // Inline sizes beat Plot's own `height: auto` (which would stretch a nested <svg>).
    p.svg.style.width = `${w}px`;
    p.svg.style.height = `${h}px`;
    p.svg.style.maxWidth = 'none';
    outer.append(p.svg);
    y += h + 16;
  }
  outer.setAttribute('width', String(width));
  outer.setAttribute('height', String(y));
  outer.setAttribute('viewBox', `0 0 ${width} ${y}`);
  outer.setAttribute('font-family', 'system-ui, sans-serif');
  return outer;
}

/**
 * Each line's name at its end, in the line's colour; names of lines ending at about the same
 * height are stacked downwards (7 points apart, about one text line) instead of overprinting.
 */
function endLabels(data: readonly { group: string; step: number; value: number }[]): { group: string; step: number; value: number }[] {
  const last = new Map<string, { step: number; value: number }>();
  for (const d of data) if ((last.get(d.group)?.step ?? -1) <= d.step) last.set(d.group, d);
  const placed: { group: string; step: number; value: number }[] = [];
  for (const [group, d] of [...last].sort((a, b) => b[1].value - a[1].value)) {
    let y = d.value;
    while (placed.some((p) => Math.abs(p.value - y) < 7)) y -= 7;
    placed.push({ group, step: d.step, value: y });
  }
  return placed;
}

/** The distinct values of `key` in first-seen order. */
const distinct = <T>(data: readonly T[], key: (d: T) => string) => [...new Set(data.map(key))];

export const CHARTS: ChartSpec[] = [
  {
    id: 'distribution',
    title: 'Score per episode',
    caption:
      'One dot per episode: SmartPlay’s games and games from no paper by raw score, AgentBoard task sets by progress rate (%). The tick marks each group’s mean.',
    intervals: false,
    async draw({ report, points, shown, width, ink, canvasAbove }, pause) {
      const label = labelOf(report);
      const setName = setNames(report);
      const data = points
        .filter((p) => p.table !== 'agentbench')
        .map((p) => {
          const g = ownGroup(p, shown);
          return g && { group: label(g), set: setName(p), percent: p.table === 'agentboard', value: p.table === 'agentboard' ? (p.progressRate ?? 0) : p.score };
        })
        .filter((d): d is { group: string; set: string; percent: boolean; value: number } => !!d);
      const parts: { title: string; svg: SVGSVGElement }[] = [];
      for (const set of distinct(data, (d) => d.set)) {
        if (parts.length) await pause();
        const rows = data.filter((d) => d.set === set);
        const percent = rows[0].percent;
        // Every episode the same score: widen the axis (a zero-width domain gives ticks like 0.000000).
        const values = rows.map((d) => d.value);
        const flat = Math.min(...values) === Math.max(...values) ? { domain: [Math.min(0, values[0]), Math.max(values[0], 0) || 1] } : { nice: true };
        parts.push({
          title: percent ? `${set}: progress rate % per episode` : `${set}: score per episode`,
          svg: svgOf(
            Plot.plot({
              ...base(width, distinct(rows, (d) => d.group).length, 1),
              x: { label: percent ? 'progress %' : 'score', grid: true, ...(percent ? { domain: [0, 100] } : flat) },
              y: { label: null },
              marks: [
                Plot.frame({ strokeOpacity: 0.2 }),
                Plot.dot(rows, { x: 'value', y: 'group', ...stripDots(rows.length, 0.4, ink, canvasAbove) }),
                Plot.tickX(rows, Plot.groupY({ x: 'mean' }, { x: 'value', y: 'group', stroke: '#e8590c', strokeWidth: 3 })),
              ],
            }),
          ),
        });
      }
      return stack(parts, width);
    },
  },
  {
    id: 'normalised',
    title: 'SmartPlay normalised score against the human line',
    caption:
      'Bars: each group’s normalised score per game, (score − min) / (human − min), with its 95% interval; the dashed line at 1 is the human baseline of this table. Diamonds: the paper’s published models.',
    intervals: true,
    async draw({ report, shown, width }) {
      const sp = report.smartplay;
      if (!sp) return null;
      const parts: { title: string; svg: SVGSVGElement }[] = [];
      sp.games.forEach((g, i) => {
        const data = sp.rows
          .filter((row) => shown.has(row.group.key) && row.cells[g.task]?.normalised.value != null)
          .map((row) => {
            const n = row.cells[g.task].normalised;
            return { group: row.group.label, value: n.value!, low: n.ci?.[0] ?? null, high: n.ci?.[1] ?? null };
          });
        if (data.length === 0) return;
        const pub = sp.published.rows
          .filter((p) => p.normalised[i] !== null)
          .map((p) => ({ group: `published: ${p.model}`, value: p.normalised[i]! }));
        const domain = [...data.map((d) => d.group), ...pub.map((d) => d.group)];
        parts.push({
          title: `${g.name}: normalised score (human ${g.human ? `${g.human.value.toFixed(2)}, ${g.human.source}` : 'none'}, min ${g.min})`,
          svg: svgOf(
            Plot.plot({
              ...base(width, domain.length, 1),
              marginLeft: 190,
              x: { label: 'normalised score (1 = human)', grid: true, nice: true },
              y: { label: null, domain },
              marks: [
                Plot.frame({ strokeOpacity: 0.2 }),
                Plot.barX(data, { x: 'value', y: 'group', fill: '#4c78a8', fillOpacity: 0.85 }),
                Plot.ruleY(data.filter((d) => d.low !== null), { x1: 'low', x2: 'high', y: 'group', stroke: 'currentColor', strokeWidth: 2 }),
                Plot.dot(pub, { x: 'value', y: 'group', symbol: 'diamond', fill: 'currentColor', fillOpacity: 0.7, r: 4 }),
                Plot.ruleX([0], { strokeOpacity: 0.5 }),
                Plot.ruleX([1], { stroke: '#e8590c', strokeWidth: 2, strokeDasharray: '6,3' }),
              ],
            }),
          ),
        });
      });
      return stack(parts, width);
    },
  },
  {
    id: 'progress',
    title: 'AgentBoard progress rate by step',
    caption: 'Mean progress (%) after each step, each episode carried forward to the longest, with its 95% interval as a band; each line is named at its end.',
    intervals: true,
    async draw({ report, shown, width }) {
      const abd = report.agentboard;
      if (!abd) return null;
      const parts: { title: string; svg: SVGSVGElement }[] = [];
      for (const s of abd.sets) {
        const data: { group: string; step: number; value: number; low: number; high: number }[] = [];
        for (const row of abd.rows) {
          if (!shown.has(row.group.key)) continue;
          for (const c of row.cells[s.key]?.curve ?? []) {
            if (c.progress.value === null) continue;
            data.push({ group: row.group.label, step: c.step, value: c.progress.value, low: c.progress.ci?.[0] ?? c.progress.value, high: c.progress.ci?.[1] ?? c.progress.value });
          }
        }
        if (data.length === 0) continue;
        parts.push({
          title: `${s.name}: mean progress rate % after each step`,
          svg: svgOf(
            Plot.plot({
              width,
              height: 260,
              marginLeft: 50,
              marginRight: 150,
              style: { background: 'transparent', color: 'currentColor', fontSize: '12px' },
              x: { label: 'step', grid: true },
              y: { label: 'progress %', domain: [0, 100], grid: true, clamp: false },
              color: { type: 'categorical', domain: report.groups.map((g) => g.label) },
              marks: [
                Plot.frame({ strokeOpacity: 0.2 }),
                Plot.areaY(data, { x: 'step', y1: 'low', y2: 'high', fill: 'group', fillOpacity: 0.1, z: 'group', curve: 'step-after' }),
                Plot.lineY(data, { x: 'step', y: 'value', stroke: 'group', strokeWidth: 2, z: 'group', curve: 'step-after' }),
                Plot.text(endLabels(data), { x: 'step', y: 'value', text: 'group', fill: 'group', textAnchor: 'start', dx: 6 }),
              ],
            }),
          ),
        });
      }
      return stack(parts, width);
    },
  },
  {
    id: 'time',
    title: 'Time on task (people)',
    caption: 'One dot per episode a person played: minutes from start to end (episodes that recorded their end); the tick marks each person’s median.',
    intervals: false,
    async draw({ report, points, shown, width, ink, canvasAbove }, pause) {
      const label = labelOf(report);
      const setName = setNames(report);
      const data = points
        .filter((p) => p.participant !== undefined && p.durationMs !== undefined && p.groups.some((g) => g.startsWith('human')))
        .map((p) => {
          const g = ownGroup(p, shown);
          return g && { group: label(g), set: setName(p), minutes: p.durationMs! / 60000 };
        })
        .filter((d): d is { group: string; set: string; minutes: number } => !!d);
      const parts: { title: string; svg: SVGSVGElement }[] = [];
      for (const set of distinct(data, (d) => d.set)) {
        if (parts.length) await pause();
        const rows = data.filter((d) => d.set === set);
        parts.push({
          title: `${set}: minutes per episode`,
          svg: svgOf(
            Plot.plot({
              ...base(width, distinct(rows, (d) => d.group).length, 1),
              x: { label: 'minutes', grid: true, zero: true, nice: true },
              y: { label: null },
              marks: [
                Plot.frame({ strokeOpacity: 0.2 }),
                Plot.dot(rows, { x: 'minutes', y: 'group', ...stripDots(rows.length, 0.5, ink, canvasAbove) }),
                Plot.tickX(rows, Plot.groupY({ x: 'median' }, { x: 'minutes', y: 'group', stroke: '#e8590c', strokeWidth: 3 })),
              ],
            }),
          ),
        });
      }
      return stack(parts, width);
    },
  },
];
