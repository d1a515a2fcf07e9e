/**
 * The episode export/import file format (JSON Lines) and its validation.
 *
 * One line per episode:
 *   {"format":"agentplay-episode","version":2,"header":EpisodeHeader,"steps":StepRecord[]}
 * (the record types are in records.ts). Version 1 lines are migrated to version 2 as they are read.
 * An export may also hold, before its episodes, the imported task files they need
 * (`{"format":"agentplay-taskfile",…}`, runtime/taskFiles.ts): parseExportFile returns both,
 * parseJsonl only the episodes.
 * Lines are joined by "\n" with a trailing newline. Files come from people's
 * disks, so everything is checked here before the store writes anything.
 */
import * as v from 'valibot';
import { ActorSchema, DriverSchema, HeaderSchema, ModelTurnSchema, OutcomeSchema, StepSchema, isPlainObject, migrateHeaderV1, migrateStepV1, type EpisodeRecord } from './records.ts';
import { TASKFILE_FORMAT, TASKFILE_FORMAT_VERSION, TaskFileLineSchema, serializeTaskFile, type StoredTaskFile } from './taskFiles.ts';

export const EPISODE_FORMAT = 'agentplay-episode';
export const EPISODE_FORMAT_VERSION = 2;
/** Older versions this app still reads (migrated on the way in). */
const READABLE_VERSIONS: readonly unknown[] = [1, 2];
/** Larger files would be parsed in one go on the main thread; refuse them early. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/** A file that cannot be imported. `line` is 1-based; 0 means the file as a whole. */
export class ImportError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(line > 0 ? `Line ${line}: ${message}` : message);
    this.name = 'ImportError';
    this.line = line;
  }
}

export const LineSchema = v.object({
  format: v.literal(EPISODE_FORMAT),
  version: v.literal(EPISODE_FORMAT_VERSION),
  header: HeaderSchema,
  steps: v.array(StepSchema),
});

// ---------------------------------------------------------------------------
// Readable issues

/** `header.driver.kind`, `steps[2].t`, … from a valibot issue path. */
function issuePath(issue: v.BaseIssue<unknown>, root = ''): string {
  let out = root;
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** One issue as "path: what was wrong", e.g. `header.seed: expected number, got "x"`. */
export function describeIssue(issue: v.BaseIssue<unknown>, root = ''): string {
  const path = issuePath(issue, root);
  let what: string;
  if (issue.kind === 'schema' && issue.type === 'object' && issue.received === 'undefined' && path) {
    what = 'missing';
  } else if (issue.kind === 'schema' && issue.type !== 'custom') {
    what = `expected ${issue.expected}, got ${issue.received}`;
  } else {
    what = issue.message; // our own messages on validations and custom checks
  }
  return path ? `${path}: ${what}` : what;
}

/**
 * Parse with a schema or throw an Error naming the first bad field, for the store's own
 * writes: checkShape(HeaderSchema, h, 'createEpisode', 'header') → "createEpisode: header.seed: …".
 */
export function checkShape<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  caller: string,
  root: string,
): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (!result.success) throw new Error(`${caller}: ${describeIssue(result.issues[0], root)}`);
  return result.output;
}

// ---------------------------------------------------------------------------
// Export

/** Known keys in schema order, then any others sorted; nested plain objects sorted. */
function ordered(obj: object, order: readonly string[]): Record<string, unknown> {
  const src = obj as Record<string, unknown>;
  const rest = Object.keys(src).filter((k) => !order.includes(k)).sort();
  const out: Record<string, unknown> = {};
  for (const k of [...order.filter((k) => k in src), ...rest]) out[k] = sortDeep(src[k]);
  return out;
}

function sortDeep(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortDeep);
  return isPlainObject(x) ? ordered(x, []) : x;
}

// Key order comes from the schemas so it cannot drift from them.
const HEADER_KEYS = Object.keys(HeaderSchema.entries);
const DRIVER_KEYS = Object.keys(DriverSchema.entries);
const OUTCOME_KEYS = Object.keys(OutcomeSchema.entries);
const STEP_KEYS = Object.keys(StepSchema.entries);
const ACTOR_KEYS = Object.keys(ActorSchema.entries);
const MODEL_KEYS = Object.keys(ModelTurnSchema.entries);

/**
 * One episode as one JSON line (no newline). Deterministic: keys are written in a
 * fixed order whatever order the objects were built in. Nothing is dropped.
 */
export function serializeEpisode({ header, steps }: EpisodeRecord): string {
  const h = ordered(header, HEADER_KEYS);
  h.driver = ordered(header.driver, DRIVER_KEYS);
  h.actors = header.actors.map((a) => ordered(a, ACTOR_KEYS));
  if (header.outcome) h.outcome = ordered(header.outcome, OUTCOME_KEYS);
  return JSON.stringify({
    format: EPISODE_FORMAT,
    version: EPISODE_FORMAT_VERSION,
    header: h,
    steps: steps.map((s) => {
      const o = ordered(s, STEP_KEYS);
      o.actor = ordered(s.actor, ACTOR_KEYS);
      if (s.model) o.model = ordered(s.model, MODEL_KEYS);
      return o;
    }),
  });
}

/**
 * Episodes as a JSON Lines file: one line each, trailing newline. Imported task files the
 * episodes need (runtime/taskFiles.ts) go first, one line each, so a reader knows the tasks
 * before it meets their episodes.
 */
export function toJsonl(records: readonly EpisodeRecord[], taskFiles: readonly StoredTaskFile[] = []): string {
  return [...taskFiles.map(serializeTaskFile), ...records.map(serializeEpisode)].map((line) => line + '\n').join('');
}

// ---------------------------------------------------------------------------
// Import

function utf8Bytes(text: string): number {
  // Cheap bounds first: each UTF-16 unit is 1 to 3 UTF-8 bytes.
  if (text.length > MAX_IMPORT_BYTES || text.length * 3 <= MAX_IMPORT_BYTES) return text.length;
  return new TextEncoder().encode(text).byteLength;
}

/** Throw if a file of `bytes` bytes is over the import limit (call before reading a big file). */
export function checkImportSize(bytes: number): void {
  if (bytes > MAX_IMPORT_BYTES) {
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    throw new ImportError(0, `The file is ${mb(bytes)} MB; files over ${mb(MAX_IMPORT_BYTES)} MB cannot be imported.`);
  }
}

/** A version 1 line as version 2 (who took each step, typed model turns); fields it does not know are left for the schema to judge. */
function migrateLineV1(line: Record<string, unknown>): Record<string, unknown> {
  const header = isPlainObject(line.header) ? migrateHeaderV1(line.header) : line.header;
  const driver = isPlainObject(line.header) ? line.header.driver : undefined;
  const steps = Array.isArray(line.steps) ? line.steps.map((s) => (isPlainObject(s) ? migrateStepV1(s, driver) : s)) : line.steps;
  return { ...line, version: EPISODE_FORMAT_VERSION, header, steps };
}

// ---------------------------------------------------------------------------
// Unknown fields: the schemas keep only the fields they know, so an import says which it left out.

/** A valibot schema seen structurally: objects have entries, wrappers wrap, arrays have an item. */
interface SchemaShape {
  type: string;
  entries?: Record<string, SchemaShape>;
  wrapped?: SchemaShape;
  item?: SchemaShape;
}

/**
 * Paths of fields in `value` that `schema` does not know (and so drops), e.g. `header.colour`,
 * `steps[3].actor.mood`. Free-form values (step info) are not looked into. Iterative, and
 * only known objects are entered, so the walk is as deep as the schema at most.
 */
export function unknownFields(schema: SchemaShape, value: unknown, root = ''): string[] {
  const found: string[] = [];
  const stack: [SchemaShape, unknown, string][] = [[schema, value, root]];
  while (stack.length > 0) {
    const [s, x, path] = stack.pop()!;
    if (s.wrapped && (s.type === 'optional' || s.type === 'nullable' || s.type === 'nullish' || s.type === 'exact_optional')) {
      stack.push([s.wrapped, x, path]);
    } else if (s.type === 'array' && s.item && Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push([s.item, x[i], `${path}[${i}]`]);
    } else if (s.type === 'object' && s.entries && isPlainObject(x)) {
      const keys = Object.keys(x);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const name = /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
        if (Object.hasOwn(s.entries, key)) stack.push([s.entries[key], x[key], name]);
        else found.push(name);
      }
    }
  }
  return found;
}

/** Fields left out of one line on import (1-based line). */
export interface IgnoredFields {
  line: number;
  fields: string[];
}

/**
 * The notice an import shows for fields it left out, or null when there were none:
 * "3 unknown fields ignored: header.colour (line 2), steps[0].mood (line 2), extra (line 5)."
 * At most `max` are named; the rest are counted.
 */
export function ignoredFieldsNotice(ignored: readonly IgnoredFields[], max = 5): string | null {
  const all = ignored.flatMap(({ line, fields }) => fields.map((f) => `${f} (line ${line})`));
  if (all.length === 0) return null;
  const named = all.slice(0, max).join(', ');
  const more = all.length > max ? `, and ${all.length - max} more` : '';
  return `${all.length} unknown field${all.length === 1 ? '' : 's'} ignored: ${named}${more}.`;
}

export type ParsedLine = { kind: 'episode'; record: EpisodeRecord } | { kind: 'taskfile'; file: StoredTaskFile };

/** One line's JSON, or an ImportError saying it is not JSON. */
export function lineJson(raw: string, line: number): unknown {
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new ImportError(line, `not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

function parseLine(raw: string, line: number, ignored?: IgnoredFields[]): ParsedLine {
  return checkLine(lineJson(raw, line), line, ignored);
}

/**
 * One line's parsed JSON checked as an import checks it (format, version 1 migration, schema,
 * consistency), or an ImportError naming what is wrong. For readers that parse the JSON themselves.
 */
export function checkLine(value: unknown, line: number, ignored?: IgnoredFields[]): ParsedLine {
  // Name a foreign or future file plainly before any field-level complaint.
  if (!isPlainObject(value)) throw new ImportError(line, 'expected a JSON object describing one episode');
  if (value.format === TASKFILE_FORMAT) return { kind: 'taskfile', file: parseTaskFileLine(value, line, ignored) };
  if (value.format !== EPISODE_FORMAT) {
    const got = 'format' in value ? `format is ${JSON.stringify(value.format)}` : 'no "format" field';
    throw new ImportError(line, `not an agentplay episode (${got}, expected "${EPISODE_FORMAT}")`);
  }
  if (!READABLE_VERSIONS.includes(value.version)) {
    throw new ImportError(
      line,
      `episode format version ${JSON.stringify(value.version)} is not supported (this app reads versions ${READABLE_VERSIONS.join(' and ')})`,
    );
  }
  if (value.version === 1) value = migrateLineV1(value);

  const result = v.safeParse(LineSchema, value, { abortEarly: true });
  if (!result.success) throw new ImportError(line, describeIssue(result.issues[0]));
  if (ignored) {
    const fields = unknownFields(LineSchema as SchemaShape, value);
    if (fields.length > 0) ignored.push({ line, fields });
  }
  const { header, steps } = result.output;

  // Consistency the schema cannot express.
  steps.forEach((step, i) => {
    if (step.episodeId !== header.id) {
      throw new ImportError(
        line,
        `steps[${i}].episodeId is ${JSON.stringify(step.episodeId)} but header.id is ${JSON.stringify(header.id)}`,
      );
    }
    if (step.t !== i + 1) {
      throw new ImportError(line, `steps[${i}].t is ${step.t}, expected ${i + 1} (steps must be numbered 1, 2, 3, … without gaps)`);
    }
  });
  if (header.outcome && header.outcome.steps !== steps.length) {
    throw new ImportError(line, `header.outcome.steps is ${header.outcome.steps} but the line holds ${steps.length} steps`);
  }
  return { kind: 'episode', record: { header, steps } };
}

/** An imported task file kept with the episodes (runtime/taskFiles.ts). */
function parseTaskFileLine(value: Record<string, unknown>, line: number, ignored?: IgnoredFields[]): StoredTaskFile {
  if (value.version !== TASKFILE_FORMAT_VERSION) {
    throw new ImportError(line, `task file format version ${JSON.stringify(value.version)} is not supported (this app reads version ${TASKFILE_FORMAT_VERSION})`);
  }
  const result = v.safeParse(TaskFileLineSchema, value, { abortEarly: true });
  if (!result.success) throw new ImportError(line, describeIssue(result.issues[0]));
  if (ignored) {
    const fields = unknownFields(TaskFileLineSchema as SchemaShape, value);
    if (fields.length > 0) ignored.push({ line, fields });
  }
  const { format: _format, version: _version, ...file } = result.output;
  if (!(file.name in file.files)) throw new ImportError(line, `files holds no ${JSON.stringify(file.name)} (the task file itself)`);
  return file;
}

/**
 * Parse and validate a whole JSON Lines file. Throws an ImportError naming the
 * first bad line; returns nothing partial. Blank lines and CRLF line ends are fine.
 * `size` is the file's byte size when the caller knows it (e.g. File.size).
 */
export function parseJsonl(text: string, size?: number): EpisodeRecord[] {
  const { episodes } = parseExportFile(text, size);
  if (episodes.length === 0) throw new ImportError(0, 'The file holds no episodes.');
  return episodes;
}

/**
 * An export file whole: its episodes and the imported task files they need, checked as
 * parseJsonl checks them, and which fields of which lines were left out (they are not
 * stored). Throws an ImportError if the file holds neither episodes nor task files.
 */
export function parseExportFile(
  text: string,
  size?: number,
  /** listIgnored: false leaves `ignored` empty (the scores view, which stores nothing, skips the walk over every field). */
  { listIgnored = true }: { listIgnored?: boolean } = {},
): { episodes: EpisodeRecord[]; taskFiles: StoredTaskFile[]; ignored: IgnoredFields[] } {
  checkImportSize(size ?? utf8Bytes(text));
  const ignored: IgnoredFields[] = [];
  const records: EpisodeRecord[] = [];
  const taskFiles: StoredTaskFile[] = [];
  const seen = new Map<string, number>(); // episode id -> line it first appeared on
  const lines = text.replace(/^\uFEFF/, '').split('\n'); // editors on Windows may add a BOM
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = i + 1;
    const parsed = parseLine(raw, line, listIgnored ? ignored : undefined);
    if (parsed.kind === 'taskfile') {
      taskFiles.push(parsed.file);
      continue;
    }
    const record = parsed.record;
    const first = seen.get(record.header.id);
    if (first !== undefined) {
      throw new ImportError(line, `episode id ${JSON.stringify(record.header.id)} already appears on line ${first}`);
    }
    seen.set(record.header.id, line);
    records.push(record);
  }
  if (records.length === 0 && taskFiles.length === 0) throw new ImportError(0, 'The file holds no episodes.');
  return { episodes: records, taskFiles, ignored };
}
