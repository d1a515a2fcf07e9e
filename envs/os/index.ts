/**
 * AgentBench OS interaction (README.md, Upstream): a model runs bash in an Ubuntu host for up to
 * 8 turns, then answers or finishes; the answer is checked by the task's match or check
 * pipeline. The host is a Shell (shell.ts): the embedded simulated Ubuntu by default, or a
 * WebContainer when the caller supplies one (createOsEnv({ shellFactory })).
 */
import type { EnvDefinition, Init, Step } from '../core/types.ts';
import { runChecks } from './checks.ts';
import { osMeta } from './meta.ts';
import { MANUAL, OPENING, answerAction, bashAction, finishAction, osReply, parseAction, problemMessage, pyStrip } from './protocol.ts';
import type { Shell, ShellFactory } from './shell.ts';
import { OS_TASKS, type OsTask } from './tasks.ts';
import { OS_TEST_TASKS } from './testset.ts';
import { findRegisteredOsTask, parseOsTaskFile, registerOsTasks, registeredOsTasks } from './taskfile.ts';

export type { OsTask } from './tasks.ts';
export { OS_TASKS } from './tasks.ts';
export { OS_TEST_TASKS } from './testset.ts';
export { OsTaskFileError, clearOsTasks, parseOsTaskFile, registerOsTasks, registeredOsTasks } from './taskfile.ts';

export const ROUND_LIMIT = 8;
/**
 * Longest bash action the embedded shell is given (characters). Longer ones are not run and
 * the observation says so: parsing a megabyte script alone takes seconds, and no task needs more.
 */
export const MAX_SCRIPT_CHARS = 65_536;
/** Time limit for init and check scripts (longer than an interactive command's). */
export const SCRIPT_TIMEOUT_MS = 10_000;

/**
 * What an image adds to the default one (upstream's Dockerfiles): `packages` installs npm.
 * There is no Node.js here, so npm is a stand-in that is present and says what it cannot do.
 */
const IMAGE_SETUP: Record<string, string> = {
  packages: `printf '%s\\n' '#!/bin/bash' 'case "$1" in -v|--version) echo 8.5.1;; *) echo "npm: cannot run packages in this simulated shell" >&2; exit 1;; esac' > /usr/bin/npm && chmod 755 /usr/bin/npm`,
};

export interface OsState {
  task: OsTask;
  shell: Shell;
  rounds: number;
  /** Raw output of the last bash action (before truncation); the oracle answers from it. */
  lastOutput: string;
  /** The committed answer (null: `finish`), undefined until the agent commits. */
  answer?: string | null;
  success: boolean | null;
  /** The task's init and start scripts, running from reset on: null once done, else why they failed. */
  setup: Promise<string | null>;
}

export interface OsEnvOptions {
  /** Makes each episode's shell (default: the embedded shell, seeded by the episode seed). */
  shellFactory?: ShellFactory;
  /** Per-command time limit for the agent's commands (ms). */
  commandTimeoutMs?: number;
}

// In a browser the embedded shell runs in a guarded Web Worker (embedded/factory.ts).
const embeddedFactory: ShellFactory = async (options) => (await import('./embedded/factory.ts')).defaultEmbeddedShellFactory(options);

let chosenFactory: ShellFactory = embeddedFactory;

/**
 * Which shell new episodes of the shared `os` environment get: the embedded one (null, the
 * default) or another backend, e.g. WebContainer with a fallback (the app's shell choice), or
 * the guarded worker shell in Node (the CLI).
 */
export function setOsShellFactory(factory: ShellFactory | null): void {
  chosenFactory = factory ?? embeddedFactory;
}

async function evaluate(state: OsState, answer: string | null, signal?: AbortSignal): Promise<boolean> {
  const ev = state.task.evaluation;
  if (ev.kind === 'match') {
    if (answer === null) return false;
    const given = ev.strip ? pyStrip(answer) : answer;
    if (ev.answer !== undefined) return given === ev.answer;
    if (ev.regex !== undefined) {
      try {
        return new RegExp(ev.regex).test(given);
      } catch {
        return false;
      }
    }
    return false;
  }
  return (await runChecks(state.shell, ev.entries, ev.example, answer, signal)).success;
}

/** Runs the image's setup, the task's init scripts and its start script; never rejects (null: done). */
async function setUp(shell: Shell, task: OsTask, seed: number): Promise<string | null> {
  try {
    const image = IMAGE_SETUP[task.image];
    if (image) await shell.run(image, [], { timeoutMs: SCRIPT_TIMEOUT_MS });
    for (const init of task.init) {
      const result = await shell.run(init(seed), [], { timeoutMs: SCRIPT_TIMEOUT_MS });
      if (result.exitCode !== 0) return `the init script failed (exit ${result.exitCode}): ${result.output.slice(0, 300)}`;
    }
    if (task.start) await shell.exec(task.start, { timeoutMs: SCRIPT_TIMEOUT_MS });
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export function createOsEnv(options: OsEnvOptions = {}): EnvDefinition<OsState, OsTask> {
  /** The shell new episodes get now (the caller's, else the app's choice at that moment). */
  const current = () => options.shellFactory ?? chosenFactory;
  /**
   * The episode made ahead (prepare): its shell, and its task's setup running in it. The shell
   * follows the seed and a virtual clock, so it is the episode a reset alone would have made.
   * Only for the embedded shell (or a caller's own): a Linux machine costs a restore and 62 MB.
   */
  let ahead: { key: string; factory: ShellFactory; made: Promise<{ shell: Shell; setup: Promise<string | null> }> } | null = null;
  const aheadKey = (task: OsTask, seed: number) => `${task.id}\u0000${seed}`;
  const dropAhead = () => {
    const dropped = ahead;
    ahead = null;
    void dropped?.made.then(({ shell }) => shell.dispose(), () => undefined);
  };
  return {
    ...osMeta,
    // AgentBench's opening: the instruction with the one-shot question, the one-shot turns; the problem follows as its own turn.
    conversation: () => ({ agentbench: { opening: OPENING } }),
    maxScore: () => 1,
    endWords: (state, end) => {
      if (end.finishReason !== 'Complete' || state.success === null) return null;
      if (state.answer === null || state.answer === undefined) return state.success ? 'You said the task is done, and its check passes.' : 'You said the task is done, but its check does not pass.';
      return state.success ? `Your answer “${state.answer}” is correct.` : `Your answer “${state.answer}” is wrong.`;
    },
    expectedAnswer: (task) => (task.evaluation.kind === 'match' && task.evaluation.answer !== undefined ? task.evaluation.answer : null),
    // The clock, $RANDOM, mktemp and shuf follow the seed and a virtual clock; what reads the host machine does not.
    replayCaveat(actions) {
      const volatile = /\b(uptime|ps|top|free|df|hostname|nproc)\b|\/proc\//;
      const at = actions.findIndex((a) => volatile.test(a));
      return at === -1 ? null : `step ${at + 1} runs a command whose output depends on the machine, so this episode may not replay exactly`;
    },
    limitKind: 'limit',
    asyncStep: true,
    // The shells setOsShellFactory chooses between (the app's catalogue card, the CLI's --shell); none when the caller gave one.
    backends: options.shellFactory ? undefined : { ids: ['embedded', 'webcontainer', 'linux'], default: 'embedded' },
    tasks: () => [...OS_TASKS, ...OS_TEST_TASKS, ...registeredOsTasks()],
    resolveTask: (id) => findRegisteredOsTask(id),
    importTasks: (text, resolveFile, options) => registerOsTasks(parseOsTaskFile(text, resolveFile).tasks, options?.prefix),
    manual: () => MANUAL,
    maxSteps: () => ROUND_LIMIT,

    prepare(task, seed): void {
      const which = current();
      if (which !== embeddedFactory && !options.shellFactory) return;
      const key = aheadKey(task, seed);
      if (ahead?.key === key && ahead.factory === which) return;
      dropAhead();
      const made = which({ seed }).then((shell) => ({ shell, setup: setUp(shell, task, seed) }));
      made.catch(() => undefined);
      ahead = { key, factory: which, made };
    },

    async reset(task, seed): Promise<Init<OsState>> {
      const mine = ahead?.key === aheadKey(task, seed) && ahead.factory === current() ? ahead : null;
      if (mine) ahead = null;
      else dropAhead();
      const made = mine && (await mine.made.catch(() => null));
      const shell = made?.shell ?? (await current()({ seed }));
      // The task's setup runs while the agent reads the problem (AgentBench's first prompt is the
      // task alone): the first action waits for it. An init of hundreds of commands took 150–330 ms
      // (prepare starts it earlier still).
      const setup = made?.setup ?? setUp(shell, task, seed);
      return { state: { task, shell, rounds: 0, lastOutput: '', success: null, setup }, observation: problemMessage(task.description), score: 0 };
    },

    async step(state, text, signal): Promise<Step<OsState>> {
      const action = parseAction(text);
      const rounds = state.rounds + 1;
      const problem = await state.setup;
      if (problem !== null) {
        // As a failed reset: the task could not start, so the episode ends without running the action.
        return {
          state: { ...state, rounds, success: false },
          observation: `The task could not start: ${problem}`,
          reward: 0,
          valid: false,
          terminated: true,
          truncated: false,
          score: 0,
          finishReason: 'Task Error',
          info: { action: null, setupFailed: problem },
        };
      }
      if (action === null) {
        const next = { ...state, rounds, success: false };
        return {
          state: next,
          observation: 'No valid action: the reply has no "Act: bash", "Act: finish" or "Act: answer(...)" line. The episode ends (AgentBench: invalid action).',
          reward: 0,
          valid: false,
          terminated: true,
          truncated: false,
          score: 0,
          finishReason: 'Invalid Action',
          info: { action: null },
        };
      }
      if (action.kind === 'bash' && action.script.length > MAX_SCRIPT_CHARS) {
        return {
          state: { ...state, rounds, lastOutput: '' },
          observation: osReply(`[The command was not run: it is ${action.script.length.toLocaleString('en-US')} characters long; this simulated shell takes at most ${MAX_SCRIPT_CHARS.toLocaleString('en-US')}.]\n`),
          reward: 0,
          valid: true,
          terminated: false,
          truncated: false,
          score: 0,
          info: { action: 'bash', command: action.script.slice(0, 200), exitCode: 2, timedOut: false, tooLong: true },
        };
      }
      if (action.kind === 'bash') {
        const result = await state.shell.exec(action.script, { timeoutMs: options.commandTimeoutMs, signal });
        return {
          state: { ...state, rounds, lastOutput: result.output },
          observation: osReply(result.output),
          reward: 0,
          valid: true,
          terminated: false,
          truncated: false,
          score: 0,
          info: { action: 'bash', command: action.script, exitCode: result.exitCode, timedOut: result.timedOut },
        };
      }
      const answer = action.kind === 'answer' ? action.answer : null;
      const success = await evaluate(state, answer, signal);
      const score = success ? 1 : 0;
      return {
        state: { ...state, rounds, answer, success },
        observation: success ? 'The answer is correct.' : 'The answer is wrong.',
        reward: score,
        valid: true,
        terminated: true,
        truncated: false,
        score,
        info: { action: action.kind, answer, success },
      };
    },

    validActions: () => [bashAction('ls'), finishAction(), answerAction('...')],
    success: (state) => state.success ?? false,
    dispose: (state) => state.shell.dispose(),
    backendOf: (state) => state.shell.kind,

    oracleAction(state, task) {
      if (state.answer !== undefined) return null;
      if (state.rounds === 0) return bashAction(task.oracleScript, 'Run the reference solution.');
      if (task.oracleFinishes) return finishAction();
      if (task.evaluation.kind === 'match' && task.evaluation.answer !== undefined && task.oracleScript === 'true') return answerAction(task.evaluation.answer);
      // An answer cannot span lines (upstream reads one `Act:` line): a multi-line output was an action's log.
      const output = pyStrip(state.lastOutput);
      if (output.includes('\n')) return finishAction('The task is done.');
      return answerAction(output, 'The output is the answer.');
    },
  };
}

export const os: EnvDefinition<OsState, OsTask> = createOsEnv();
