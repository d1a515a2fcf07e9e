/**
 * AgentBench's Database task (dbbench, dev split, 60 tasks; README.md, Upstream) on sql.js.
 *
 * Each episode gets a fresh database holding the task's table (named after table_name, every
 * column TEXT, rows inserted with parameters). The agent's replies are parsed exactly as
 * upstream: "Action: Operation" + the first ```sql block runs one statement and the reply is
 * the Python repr of the rows (or the error), cut at 800 characters + "[TRUNCATED]"; any
 * reply with "\nFinal Answer:" ends the episode (Complete); anything else is Invalid Format.
 * After 15 operations the next reply must answer, else Task Limit Exceeded.
 *
 * Checking: SELECT-type tasks compare the final answer with the labels (check.ts);
 * INSERT/UPDATE tasks compare the table hash with `answer_md5`, whatever the episode's end,
 * as upstream does (the hash is taken after every statement, so it is current however the
 * episode stops, and each step's info records it). success() is the check; the score is 0
 * until the benchmark ends the episode (answer, Invalid Format, limit), then 1 when the check
 * passes, else 0, so a player gets no live hint.
 *
 * Where the SQL runs: see executor.ts (`setDbExecutorFactory`); how MySQL's comparisons are
 * kept on SQLite: see engine.ts.
 */
import type { EnvDefinition, Init, Step } from '../core/types.ts';
import { checkSelectAnswer } from './check.ts';
import type { JsonCell } from './engine.ts';
import { dbExecutorFactory, type SqlExecutor } from './executor.ts';
import { DB_ACK, DB_INSTRUCTION, DB_ROUND_LIMIT, answerReply, dbQuestion, operationReply, parseReply } from './protocol.ts';
import { pyStrListRepr } from './pyrepr.ts';
import { SELECT_REFERENCES } from './reference.ts';
import { DB_BUILT_IN_TASKS, dbRowOf, hashChecked, isRegisteredDbTask, registeredDbTask, setupFor, type DbTask } from './tasks.ts';
import { listRegisteredDbTasks, parseDbTaskFile, registerDbTasks } from './taskfile.ts';
import { dbMeta } from './meta.ts';

export { DB_TASKS, DB_STD_TASKS, DB_BUILT_IN_TASKS, type DbTask } from './tasks.ts';
export { setDbExecutorFactory, dbExecutorFactory, type SqlExecutor, type ExecutorFactory } from './executor.ts';

/** The live database of one episode. Serialises to a small summary, never to the database. */
export class DbSession {
  constructor(readonly executor: SqlExecutor) {}
  toJSON(): { statements: number; restarts: number } {
    return { statements: this.executor.statements.length, restarts: this.executor.restarts };
  }
}

export interface DbState {
  taskId: string;
  index: number;
  /** Operations executed so far (upstream's `rounds`). */
  rounds: number;
  /** The text after "Final Answer:" (leading space kept), or null before an answer. */
  answer: string | null;
  /** INSERT/UPDATE tasks: the table hash after the latest statement (null for SELECT tasks). */
  hash: string | null;
  /** The episode has ended by the benchmark's rules (answer, Invalid Format, limit). */
  done: boolean;
  /** The latest statement's result as a table (first rows), for a result view. */
  last: { sql: string; ok: boolean; columns: string[]; rows: JsonCell[][]; complete: boolean } | null;
  session: DbSession;
}

/** upstream round limit (15 operations) plus the reply that must then answer. */
export const DB_MAX_STEPS = DB_ROUND_LIMIT + 1;

function passes(state: DbState): boolean {
  const row = dbRowOf(state);
  if (hashChecked(row)) return state.hash !== null && state.hash === row.answer_md5;
  return checkSelectAnswer(state.answer ?? '', row.label);
}

function ended(state: DbState, observation: string, extra: Partial<Step<DbState>>, info: Record<string, unknown>): Step<DbState> {
  const next = { ...state, done: true };
  const score = passes(next) ? 1 : 0;
  return { state: next, observation, reward: score, valid: true, terminated: false, truncated: false, score, info, ...extra };
}

/** The reference solution's next reply (see reference.ts): the statement, then the answer. */
export function dbOracleAction(state: DbState, task: DbTask): string | null {
  if (state.done) return null;
  const row = dbRowOf(task);
  if (state.rounds === 0) return operationReply(hashChecked(row) ? row.label[0] : selectReference(task));
  return answerReply(hashChecked(row) ? '[]' : pyStrListRepr(row.label));
}

/**
 * A SELECT task's reference statement: reference.ts for the dev tasks; for a test or task-file
 * task its row's `sql.query` (upstream's, not always right), else a look at the whole table
 * (the oracle's answer is the label either way).
 */
function selectReference(task: DbTask): string {
  if (task.id.startsWith('db-dev-') && !isRegisteredDbTask(task.id)) return SELECT_REFERENCES[task.index].sql;
  const row = dbRowOf(task);
  return row.sql?.query ?? `SELECT * FROM \`${row.table.table_name.replaceAll('`', '``')}\``;
}

export const db: EnvDefinition<DbState, DbTask> = {
  ...dbMeta,
  // AgentBench's opening: the instruction, the agent's "Ok.", then the question (the reset observation) as its own turn.
  conversation: () => ({ agentbench: { ack: DB_ACK } }),
  // A DB task is one fixed table and question.
  usesSeed: () => false,
  // A SELECT task's labels; a task that changes the table is judged by the table's hash, which shows nothing to a person.
  expectedAnswer: (task) => {
    const row = dbRowOf(task);
    return hashChecked(row) ? null : row.label.join(', ');
  },
  limitKind: 'limit',
  asyncStep: true,
  tasks: () => [...DB_BUILT_IN_TASKS, ...listRegisteredDbTasks()],
  /** Tasks registered from a task file (taskfile.ts `registerDbTasks`). */
  resolveTask: (id) => registeredDbTask(id),
  importTasks: (text, _resolveFile, options) => registerDbTasks(parseDbTaskFile(text, { prefix: options?.prefix }).tasks),
  manual: () => DB_INSTRUCTION,
  maxSteps: () => DB_MAX_STEPS,

  async reset(task): Promise<Init<DbState>> {
    const row = dbRowOf(task);
    const executor = await dbExecutorFactory()(setupFor(row));
    const hash = hashChecked(row) ? await executor.hash() : null;
    const state: DbState = {
      taskId: task.id,
      index: task.index,
      rounds: 0,
      answer: null,
      hash,
      done: false,
      last: null,
      session: new DbSession(executor),
    };
    return { state, observation: dbQuestion(row), score: 0 };
  },

  async step(state, text, signal): Promise<Step<DbState>> {
    if (state.done) {
      return { state, observation: 'The episode is over.', reward: 0, valid: false, terminated: true, truncated: false, score: passes(state) ? 1 : 0 };
    }
    const reply = parseReply(String(text), state.rounds);
    switch (reply.kind) {
      case 'operation': {
        const outcome = await state.session.executor.exec(reply.sql, signal);
        const next: DbState = {
          ...state,
          rounds: state.rounds + 1,
          hash: outcome.hash ?? state.hash,
          last: { sql: reply.sql, ok: outcome.ok, columns: outcome.columns, rows: outcome.rows, complete: outcome.complete },
        };
        const info: Record<string, unknown> = { action: 'operation', sql: reply.sql, ok: outcome.ok, rows: outcome.rowsRead };
        if (outcome.timedOut !== undefined) info.timedOut = outcome.timedOut;
        if (outcome.hash !== undefined) info.hash = outcome.hash;
        return {
          state: next,
          observation: outcome.text,
          reward: 0,
          valid: true,
          terminated: false,
          truncated: false,
          // The check is only read when the episode ends (no live hint to a human player).
          score: 0,
          info,
        };
      }
      case 'answer':
        return ended({ ...state, answer: reply.answer }, `Final answer recorded:${reply.answer}`, { terminated: true }, {
          action: 'answer',
          answer: reply.answer,
        });
      case 'invalid':
        return ended(
          state,
          reply.reason === 'no-sql-block'
            ? 'Invalid Format: "Action: Operation" needs a ```sql code block; AgentBench judges the reply FAIL and ends the task.'
            : 'Invalid Format: the reply has neither an "Action: Operation" line nor a "Final Answer:" line; AgentBench judges it FAIL and ends the task.',
          { valid: false, finishReason: 'Invalid Format' },
          { action: 'invalid', reason: reply.reason },
        );
      case 'limit':
        return ended(
          state,
          `Task Limit Exceeded: ${DB_ROUND_LIMIT} operations have run and this reply gives no final answer.`,
          { truncated: true, finishReason: 'Task Limit Exceeded' },
          { action: 'limit' },
        );
    }
  },

  validActions: () => [],
  success: (state) => passes(state),
  maxScore: () => 1,
  endWords: (state, end) => {
    if (end.finishReason !== 'Complete' || state.answer === null) return null;
    if (hashChecked(dbRowOf(state))) return passes(state) ? 'The table ends as the task asks.' : 'The table does not end as the task asks (its contents are compared, not the answer).';
    return passes(state) ? `Your answer “${state.answer.trim()}” matches the expected one.` : `Your answer “${state.answer.trim()}” does not match the expected one.`;
  },
  dispose: (state) => state.session.executor.close(),
  oracleAction: dbOracleAction,
};

/** The task's table as the question shows it: its name and column names (for the SQL console). */
export function dbTableInfo(task: DbTask): { name: string; columns: string[] } {
  const row = dbRowOf(task);
  return { name: row.table.table_name, columns: row.table.table_info.columns.map((c) => c.name) };
}
