/**
 * Bring-your-own OS tasks: a file in upstream's dev.json format (a JSON list of tasks with
 * description, create {local|image, init}, start, evaluation {match | check + example},
 * labels) becomes OsTask values the environment resets and checks exactly like the dev set
 * once registered (registerOsTasks; the env lists them in tasks() and finds them through
 * resolveTask).
 *
 * Every form upstream's loader accepts is read by loader.ts (scripts as a string, `{code}` or
 * `{file}`, bash or python; check lists or one check script; match strings or objects; init as a
 * string, object or list). A file is read through `resolveFile` (the caller reads paths relative
 * to the task file; paths outside its folder are refused before it is asked). When it has no
 * such file, the dev set's own files fall back to our replacements (example/0.sh,
 * init/stock-log.sh, check/0.sh as the calc check). A form that cannot run is refused with the
 * task index, the field and why.
 */
import { TaskProblem, loadTask, type ResolveFile } from './loader.ts';
import { NAMED_CHECKS, OS_TASKS, SHELL_FILES, oracleOf, titleOf, type OsTask } from './tasks.ts';
import { OS_TEST_TASKS } from './testset.ts';

export { confinedPath, type ResolveFile } from './loader.ts';

/** A task file that cannot be used; `index` is the task's position in the list (absent for the whole file). */
export class OsTaskFileError extends Error {
  readonly index?: number;
  readonly field?: string;
  constructor(message: string, index?: number, field?: string) {
    const where = index === undefined ? '' : `task ${index}${field ? ` (${field})` : ''}: `;
    super(`${where}${message}`);
    this.name = 'OsTaskFileError';
    this.index = index;
    this.field = field;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`);

function toCustomTask(raw: unknown, index: number, resolveFile?: ResolveFile): OsTask {
  let loaded;
  try {
    loaded = loadTask(raw, { resolveFile, replacements: SHELL_FILES, namedChecks: NAMED_CHECKS });
  } catch (err) {
    if (err instanceof TaskProblem) throw new OsTaskFileError(err.message, index, err.field);
    throw err;
  }
  const notes = ['Custom task (task file).'];
  if (loaded.files.length) notes.push(`Files: ${loaded.files.join(', ')}.`);
  if (loaded.python.length) notes.push(`Python in ${loaded.python.join(', ')} runs in the embedded shell's python subset (arithmetic, print, sys.argv, assert, str methods).`);
  return {
    id: `os-custom-${String(index).padStart(2, '0')}`,
    name: `custom-${String(index).padStart(5, '0')}`,
    tags: loaded.labels,
    index,
    split: 'custom',
    source: 'task file',
    description: loaded.description,
    title: titleOf(loaded.description),
    labels: loaded.labels,
    image: loaded.image,
    init: loaded.init,
    start: loaded.start,
    evaluation: loaded.evaluation,
    runnable: true,
    note: notes.join(' '),
    ...oracleOf(loaded),
  };
}

/**
 * Parse a task file in upstream's dev.json format. Throws OsTaskFileError naming the task
 * index and field. Ids are `os-custom-NN` until registerOsTasks gives them their prefix.
 */
export function parseOsTaskFile(text: string, resolveFile?: ResolveFile): { tasks: OsTask[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new OsTaskFileError(`the task file is not valid JSON: ${(err as Error).message}`);
  }
  // A single task object is accepted as a list of one.
  const list = isObject(data) && 'description' in data ? [data] : data;
  if (!Array.isArray(list)) throw new OsTaskFileError(`the task file must be a JSON list of tasks, not ${describe(data)}`);
  if (list.length === 0) throw new OsTaskFileError('the task file has no tasks');
  return { tasks: list.map((raw, i) => toCustomTask(raw, i, resolveFile)) };
}

const registry = new Map<string, OsTask>();
const BUILT_IN_IDS = new Set([...OS_TASKS, ...OS_TEST_TASKS].flatMap((t) => [t.id, t.name]));

/**
 * Make parsed tasks playable: they get ids `<prefix>-NN` (NN: position in the file) and names
 * `<prefix>-NNNNN`, replace earlier tasks with the same ids, and are returned as registered.
 * The os environment lists them after the dev set and resolves them by id or name.
 */
export function registerOsTasks(tasks: readonly OsTask[], prefix = 'os-custom'): OsTask[] {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(prefix)) throw new OsTaskFileError(`invalid task id prefix "${prefix}" (letters, digits, "-", "_", ".")`);
  const registered = tasks.map((t) => ({
    ...t,
    id: `${prefix}-${String(t.index).padStart(2, '0')}`,
    name: `${prefix}-${String(t.index).padStart(5, '0')}`,
  }));
  for (const t of registered) {
    if (BUILT_IN_IDS.has(t.id) || BUILT_IN_IDS.has(t.name)) throw new OsTaskFileError(`task id "${t.id}" is taken by a built-in task; choose another prefix`);
  }
  for (const t of registered) registry.set(t.id, t);
  return registered;
}

/** The registered tasks, in registration order. */
export function registeredOsTasks(): OsTask[] {
  return [...registry.values()];
}

/** A registered task by id or name, or null. */
export function findRegisteredOsTask(id: string): OsTask | null {
  return registry.get(id) ?? [...registry.values()].find((t) => t.name === id) ?? null;
}

/** Forget registered tasks (all, or those whose id starts with `prefix-`). */
export function clearOsTasks(prefix?: string): void {
  for (const id of [...registry.keys()]) if (prefix === undefined || id.startsWith(`${prefix}-`)) registry.delete(id);
}
