/**
 * Subgoal sets as data (issue 13 §1). The valibot schemas below are the single
 * definition: every type here is inferred from them, and anything read from storage or
 * a file goes through `parseSubgoalSet` first.
 *
 * A set belongs to one task (env + task id), is written by one author, and is versioned
 * per task: version 1 of AgentBoard's tasks is AgentBoard's own set (builtin.ts); an
 * edit makes a new version whose `parentVersion` is the version it started from.
 */
import * as v from 'valibot';

const NonEmpty = v.pipe(v.string(), v.minLength(1));
const Version = v.pipe(v.number(), v.integer(), v.minValue(1));

/** AgentBoard's pattern on the observation text (envs/core/subgoals.ts): the default kind. */
export const PatternMatcherSchema = v.object({
  kind: v.literal('pattern'),
  pattern: v.string(),
});

/** Flags that keep state between calls (g, y) would make a matcher depend on what it saw before. */
function compiles(m: { kind: 'regex'; source: string; flags?: string }): boolean {
  try {
    new RegExp(m.source, m.flags ?? '');
    return !/[gy]/.test(m.flags ?? '');
  } catch {
    return false;
  }
}

/** A JavaScript regular expression tested against the whole observation. */
export const RegexMatcherSchema = v.pipe(
  v.object({
    kind: v.literal('regex'),
    source: v.string(),
    flags: v.optional(v.pipe(v.string(), v.regex(/^[imsu]*$/))),
  }),
  v.check(compiles, 'the regular expression does not compile (allowed flags: i, m, s, u)'),
);

/**
 * A state predicate the environment offers, by name with parameters (e.g. PDDL's
 * `goal-literal` {text}); evaluated through a callback the caller injects (score.ts).
 */
export const PredicateMatcherSchema = v.object({
  kind: v.literal('predicate'),
  name: NonEmpty,
  params: v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()])),
});

export const LeafMatcherSchema = v.variant('kind', [PatternMatcherSchema, RegexMatcherSchema, PredicateMatcherSchema]);

/** Fires when any alternative fires: AgentBoard's alternative lists (`subgoals_1`, …) position by position. */
export const AnyMatcherSchema = v.object({
  kind: v.literal('any'),
  of: v.pipe(v.array(LeafMatcherSchema), v.minLength(1)),
});

export const MatcherSchema = v.variant('kind', [PatternMatcherSchema, RegexMatcherSchema, PredicateMatcherSchema, AnyMatcherSchema]);

export const SubgoalSchema = v.object({
  label: v.string(),
  matcher: MatcherSchema,
});

/**
 * How subgoals turn into progress (envs/core/README.md, "AgentBoard subgoals and metrics"):
 * - `subgoal` (BabyAI): after each credited step, the first remaining subgoal that fires
 *   is credited for good; at most one per step; progress = credited / total.
 * - `match` (PDDL): after each credited step, progress = max(progress, subgoals holding
 *   now / total); a subgoal "fires" at the first step it holds.
 */
export const CreditingSchema = v.picklist(['subgoal', 'match']);

export const SubgoalSetSchema = v.object({
  format: v.literal(1),
  env: NonEmpty,
  task: NonEmpty,
  author: NonEmpty,
  version: Version,
  parentVersion: v.nullable(Version),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  title: v.optional(v.string()),
  crediting: v.optional(CreditingSchema, 'subgoal'),
  subgoals: v.array(SubgoalSchema),
  /**
   * The fields of the AgentBoard test.jsonl row this set came from or goes to, other
   * than the subgoal lists (id, task, goal, difficulty, additional_info, …), in row order,
   * so an exported row is byte-identical to the imported one (agentboard-format.ts).
   */
  agentboard: v.optional(v.object({ fields: v.record(v.string(), v.unknown()) })),
});

export type PatternMatcher = v.InferOutput<typeof PatternMatcherSchema>;
export type RegexMatcher = v.InferOutput<typeof RegexMatcherSchema>;
export type PredicateMatcher = v.InferOutput<typeof PredicateMatcherSchema>;
export type LeafMatcher = v.InferOutput<typeof LeafMatcherSchema>;
export type AnyMatcher = v.InferOutput<typeof AnyMatcherSchema>;
export type Matcher = v.InferOutput<typeof MatcherSchema>;
export type Subgoal = v.InferOutput<typeof SubgoalSchema>;
export type Crediting = v.InferOutput<typeof CreditingSchema>;
export type SubgoalSet = v.InferOutput<typeof SubgoalSetSchema>;
/** What parseSubgoalSet accepts (crediting may be left out). */
export type SubgoalSetInput = v.InferInput<typeof SubgoalSetSchema>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Validate untrusted data as a subgoal set; the message names the first bad field. */
export function parseSubgoalSet(data: unknown): ParseResult<SubgoalSet> {
  const r = v.safeParse(SubgoalSetSchema, data);
  if (r.success) return { ok: true, value: r.output };
  const issue = r.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
  return { ok: false, message: path ? `${path}: ${issue.message}` : issue.message };
}

/** The key a set is stored under: one set per (env, task, version). */
export function setKey(s: Pick<SubgoalSet, 'env' | 'task' | 'version'>): string {
  return `${s.env}/${s.task}/v${s.version}`;
}
