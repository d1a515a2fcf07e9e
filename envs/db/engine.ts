/**
 * One task database on sql.js, run the way AgentBench's MySQL would answer (README.md, Upstream).
 * Pure logic over a sql.js module handed in, so the same code runs in-process (Node tests),
 * in a Web Worker (browser) and in a Node worker thread.
 *
 * Each reply's SQL goes through the MySQL layer first (mysql/translate.ts): MySQL's tokens,
 * names, operators, functions, collation and errors become SQLite that means the same, with
 * the MySQL type of every result column, so rows print as mysql-connector returns them
 * (mysql/print.ts). SHOW, DESCRIBE, SET and USE are answered here.
 *
 * Stored values. Upstream's columns are all TEXT. The table is kept in two forms of one schema
 * (the declared type is switched by rewriting the table's entry in sqlite_schema, with
 * writable_schema and a schema_version bump; the stored records never change):
 *   - stored values: every cell is TEXT, exactly the task's strings (so the table hash and
 *     the printed rows are MySQL's);
 *   - "numeric" form (resting): columns declared NUMERIC, for reading statements;
 *   - "text" form: columns declared TEXT, so values an agent writes keep their exact text
 *     ('7.400' stays '7.400'). Values are stored in this form.
 * A writing statement is first run in the numeric form, rolled back, then run in the text
 * form; if the task table ends up the same (cell for cell), the text run is kept; if not, the
 * numeric run is redone and its numbers are turned back into text. Comparisons themselves no
 * longer depend on the form: the MySQL layer writes text-with-number comparisons with MySQL's
 * numeric prefix (mysql_num) and text-with-text ones under the collation (mysql_fold). Automatic
 * indexes are turned off (they would be built from stored text with NUMERIC affinity applied).
 */
import type { Database, SqlJsStatic, Statement } from 'sql.js';
import { tableHashAnswer } from './check.ts';
import { PyDate, PyDecimal, RowsReprBuilder, pyRowsRepr, truncateOutput, type SqlCell } from './pyrepr.ts';
import { translate, type SqlType } from './mysql/translate.ts';
import { errorText, fromSqlite } from './mysql/errors.ts';
import { registerFunctions } from './mysql/functions.ts';
import { typedRow } from './mysql/print.ts';
import type { DbSetup } from './tasks.ts';

/** A cell as the UI may show it (JSON-safe): big integers and blobs become text. */
export type JsonCell = string | number | null;

/** What running one reply's SQL gave. */
export interface ExecOutcome {
  /** The observation, exactly as AgentBench prints it: Python repr of the rows, or the error text; cut at 800 + "[TRUNCATED]". */
  text: string;
  /** False when the statement failed (the text is then the error message). */
  ok: boolean;
  /** Column names of the first statement's result (empty for statements without rows). */
  columns: string[];
  /** The first rows of that result (at most RESULT_ROWS_KEPT), JSON-safe, for a table view. */
  rows: JsonCell[][];
  /** Rows read; reading stops once the printed text is past the cut. */
  rowsRead: number;
  /** Whether every row of the result was read. */
  complete: boolean;
  /** The check hash after the statement, when the setup asks for it (INSERT/UPDATE tasks). */
  hash?: string;
  /** Set when the executor stopped a statement that ran too long. */
  timedOut?: boolean;
}

export const RESULT_ROWS_KEPT = 100;

function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** SQL identifier quoting that survives any name (spaces, quotes, brackets). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function createTableSql(setup: DbSetup, type: 'TEXT' | 'NUMERIC'): string {
  const columns = setup.columns.map((c) => `${quoteIdent(c)} ${type} COLLATE NOCASE`).join(', ');
  return `CREATE TABLE ${quoteIdent(setup.table)} (${columns})`;
}

export type Mode = 'numeric' | 'text';

// Words that make a statement (possibly) store values, and statements that control transactions.
const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER']);
const TRANSACTION_WORDS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/**
 * The tokens of an SQL text that matter for choosing how to run it: words (upper-cased)
 * outside string literals, quoted identifiers and comments, the punctuation ; ( ) and , and
 * "CMP" for an ordering comparison (<, >, <=, >=; not <>, << or >>).
 */
export function sqlWords(sql: string): string[] {
  const words: string[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === "'" || ch === '"' || ch === '`') {
      i++;
      while (i < n) {
        if (sql[i] === ch) {
          if (sql[i + 1] === ch) i += 2;
          else break;
        } else i++;
      }
      i++;
    } else if (ch === '[') {
      while (i < n && sql[i] !== ']') i++;
      i++;
    } else if (ch === '-' && next === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (ch === '-' && next === '>') {
      i += sql[i + 2] === '>' ? 3 : 2;
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (ch === ';' || ch === '(' || ch === ')' || ch === ',') {
      words.push(ch);
      i++;
    } else if (ch === '<' || ch === '>') {
      if ((ch === '<' && next === '>') || next === ch) i += 2;
      else {
        words.push('CMP');
        i += next === '=' ? 2 : 1;
      }
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j])) j++;
      words.push(sql.slice(i, j).toUpperCase());
      i = j;
    } else i++;
  }
  return words;
}

/**
 * How a reply's SQL is run: 'read' (no statement stores anything), 'write' (values may be
 * stored in the task table) or 'transaction' (a statement starts with BEGIN, COMMIT, END,
 * ROLLBACK, SAVEPOINT or RELEASE: run as is, then committed as upstream commits).
 */
export function classifySql(sql: string): 'read' | 'write' | 'transaction' {
  return classifyWords(sqlWords(sql));
}

function classifyWords(words: readonly string[]): 'read' | 'write' | 'transaction' {
  let write = false;
  let start = true;
  for (const word of words) {
    if (word === ';') {
      start = true;
      continue;
    }
    if (start && TRANSACTION_WORDS.has(word)) return 'transaction';
    if (WRITE_WORDS.has(word) || (start && word === 'REPLACE')) write = true;
    start = false;
  }
  return write ? 'write' : 'read';
}

/**
 * Whether an IN at words[i] ("IN", "(") has a subquery or a list of three or more values:
 * the forms SQLite evaluates through a lookup table (shorter lists become plain comparisons).
 */
function lookupIn(words: readonly string[], i: number): boolean {
  const first = words[i + 2];
  if (first === 'SELECT' || first === 'WITH' || first === 'VALUES') return true;
  let depth = 0;
  let commas = 0;
  for (let k = i + 1; k < words.length; k++) {
    const w = words[k];
    if (w === '(') depth++;
    else if (w === ')') {
      depth--;
      if (depth === 0) break;
    } else if (w === ',' && depth === 1) commas++;
  }
  return commas >= 2;
}

/**
 * Which column form gives MySQL's answers for a statement. The numeric form relies on SQLite
 * applying the column's NUMERIC affinity when it compares, which it does for =, <, >,
 * BETWEEN, CASE, joins (automatic indexes are off) and IN lists of one or two values; but an
 * IN with a subquery or with three or more values probes a lookup table with the stored text
 * unconverted (SQLite assumes a column's values already carry its affinity), so
 * '2001' IN (2001, 2002, 2003) would be false. Statements with such an IN and no ordering
 * comparison run in the text form, where both sides of the IN compare as text
 * ('2001' = '2001'); with an ordering comparison too, the numeric form is kept and such an
 * IN misses numeric-looking values (a known gap).
 */
export function semanticForm(words: readonly string[]): Mode {
  let hasIn = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === 'CMP' || w === 'BETWEEN') return 'numeric';
    if (w === 'IN' && words[i + 1] === '(' && lookupIn(words, i)) hasIn = true;
  }
  return hasIn ? 'text' : 'numeric';
}

/** SQLite's NUMERIC affinity of a text, or null when the text is not a well-formed number. */
function numericAffinity(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  return Number(t);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function jsonCell(cell: SqlCell): JsonCell {
  if (typeof cell === 'bigint') return Number.isSafeInteger(Number(cell)) ? Number(cell) : cell.toString();
  if (cell instanceof Uint8Array) return Array.from(cell, (b) => b.toString(16).padStart(2, '0')).join('');
  if (cell instanceof PyDecimal || cell instanceof PyDate) return cell.toString();
  return cell;
}

type GetWithConfig = (params: null, config: { useBigInt: boolean }) => SqlCell[];

function rowOf(stmt: Statement): SqlCell[] {
  return (stmt.get as unknown as GetWithConfig).call(stmt, null, { useBigInt: true });
}

/** The first statement's printed result, or the error, of one run of the reply's SQL. */
type RunResult = Omit<ExecOutcome, 'hash'>;

/** SQLite's own allocation bound for one task database (the tables are tiny; a runaway is refused, not grown). */
export const DB_HEAP_LIMIT_BYTES = 128 * 1024 * 1024;

export class DbEngine {
  readonly db: Database;
  private readonly table: string;
  private readonly textColumns: ReadonlySet<string>;
  private readonly textSql: string;
  private readonly numericSql: string;
  private readonly hashSql: string;
  /** False once the table's schema is not one of our two forms (the agent altered, dropped or replaced it). */
  private flippable = true;
  private readonly registered = new Set<string>();
  /** The MySQL types of the running statement's result columns (null: SQLite's own). */
  private columnTypes: SqlType[] | null = null;
  /** The statement as the agent wrote it (for MySQL's error texts). */
  private agentSql = '';

  constructor(
    SQL: SqlJsStatic,
    readonly setup: DbSetup,
  ) {
    this.db = new SQL.Database();
    this.table = setup.table;
    this.textColumns = new Set(setup.columns.map((c) => c.toLowerCase()));
    this.textSql = createTableSql(setup, 'TEXT');
    this.numericSql = createTableSql(setup, 'NUMERIC');
    const cols = setup.columns.map((c) => `CAST(${quoteIdent(c)} AS TEXT)`).join(', ');
    this.hashSql = `SELECT ${cols} FROM ${quoteIdent(setup.table)}`;
    try {
      // Automatic indexes would be built from the stored text with NUMERIC affinity applied and
      // probed with unconverted text (see semanticForm); the tables are small, scans are fine.
      this.db.run('PRAGMA automatic_index = OFF');
      // Memory is bounded inside the engine too (a browser worker has no heap limit of its own): past it a statement fails with out of memory.
      this.db.run(`PRAGMA hard_heap_limit = ${DB_HEAP_LIMIT_BYTES}`);
      this.db.run(this.textSql);
      if (this.schemaSql() !== this.textSql) this.flippable = false;
      const placeholders = setup.columns.map(() => '?').join(', ');
      const insert = this.db.prepare(`INSERT INTO ${quoteIdent(setup.table)} VALUES (${placeholders})`);
      this.db.run('BEGIN');
      try {
        for (const row of setup.rows) insert.run(row);
      } finally {
        insert.free();
      }
      this.db.run('COMMIT');
      this.setMode('numeric');
    } catch (err) {
      this.db.close();
      throw err;
    }
  }

  private schemaSql(): string | null {
    const stmt = this.db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?");
    try {
      stmt.bind([this.table]);
      return stmt.step() ? (stmt.get()[0] as string | null) : null;
    } finally {
      stmt.free();
    }
  }

  /** Switches the task table's declared column type; a no-op once the agent changed the table. */
  private setMode(mode: Mode): void {
    if (!this.flippable) return;
    const current = this.schemaSql();
    const want = mode === 'numeric' ? this.numericSql : this.textSql;
    if (current === want) return;
    if (current !== (mode === 'numeric' ? this.textSql : this.numericSql)) {
      this.flippable = false;
      return;
    }
    const version = this.db.exec('PRAGMA schema_version')[0].values[0][0] as number;
    this.db.run('PRAGMA writable_schema = ON');
    try {
      this.db.run("UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?", [want, this.table]);
      this.db.run(`PRAGMA schema_version = ${version + 1}`);
    } finally {
      this.db.run('PRAGMA writable_schema = OFF');
    }
  }

  /** Runs every statement of `sql` in order, stopping at the first error; the result is the first statement's. */
  private runAll(sql: string): RunResult {
    const types = this.columnTypes;
    const builder = new RowsReprBuilder();
    let columns: string[] = [];
    const rows: JsonCell[][] = [];
    let complete = true;
    let first = true;
    try {
      for (const stmt of this.db.iterateStatements(sql)) {
        if (first) {
          first = false;
          columns = stmt.getColumnNames();
          while (stmt.step()) {
            const row = typedRow(rowOf(stmt), types);
            if (rows.length < RESULT_ROWS_KEPT) rows.push(row.map(jsonCell));
            if (!builder.add(row)) {
              complete = false;
              break;
            }
          }
        } else {
          while (stmt.step());
        }
      }
    } catch (err) {
      // MySQL's COMMIT and ROLLBACK outside a transaction do nothing (upstream commits after every statement).
      if (/^cannot (commit|rollback) - no transaction is active$/.test(errorMessage(err))) {
        return { text: '[]', ok: true, columns, rows, rowsRead: 0, complete: true };
      }
      const error = fromSqlite(errorMessage(err), this.agentSql, this.table);
      return { text: truncateOutput(errorText(error)), ok: false, columns, rows, rowsRead: builder.rows, complete: false };
    }
    return { text: builder.finish(), ok: true, columns, rows, rowsRead: builder.rows, complete };
  }

  /** The task table's rows with rowids, or null when it cannot be read. */
  private snapshot(): SqlCell[][] | null {
    try {
      const result = this.db.exec(`SELECT rowid, * FROM ${quoteIdent(this.table)}`);
      return result.length === 0 ? [] : (result[0].values as SqlCell[][]);
    } catch {
      return null;
    }
  }

  private static sameTable(numeric: SqlCell[][] | null, text: SqlCell[][] | null): boolean {
    if (numeric === null || text === null) return numeric === text;
    if (numeric.length !== text.length) return false;
    for (let r = 0; r < numeric.length; r++) {
      const a = numeric[r];
      const b = text[r];
      if (a.length !== b.length) return false;
      for (let c = 0; c < a.length; c++) {
        const x = a[c];
        const y = b[c];
        if (x === y) continue;
        if (typeof x === 'number' && typeof y === 'string' && numericAffinity(y) === x) continue;
        return false;
      }
    }
    return true;
  }

  /**
   * After a write that had to run in the numeric form: SQLite applied NUMERIC affinity to every
   * column of the rows it wrote, so cells the statement did not change get their original text
   * back (when the number is what that text reads as), and the remaining numbers become text.
   */
  private restoreText(before: SqlCell[][] | null, after: SqlCell[][] | null): void {
    this.setMode('text');
    if (!this.flippable || after === null) return;
    const table = quoteIdent(this.table);
    const original = new Map<SqlCell, SqlCell[]>((before ?? []).map((row) => [row[0], row]));
    for (const row of after) {
      const old = original.get(row[0]);
      if (!old) continue;
      for (let c = 1; c < row.length && c <= this.setup.columns.length; c++) {
        const was = old[c];
        const now = row[c];
        if (was !== now && typeof was === 'string' && typeof now === 'number' && numericAffinity(was) === now) {
          this.db.run(`UPDATE ${table} SET ${quoteIdent(this.setup.columns[c - 1])} = ? WHERE rowid = ?`, [was, row[0] as number]);
        }
      }
    }
    const sets = this.setup.columns.map((c) => `${quoteIdent(c)} = ${quoteIdent(c)}`).join(', ');
    this.db.run(`UPDATE ${table} SET ${sets}`);
  }

  private tryRun(sql: string): void {
    try {
      this.db.run(sql);
    } catch {
      // The agent's own transaction statements may have ended ours; nothing to undo then.
    }
  }

  private runWrite(sql: string): RunResult {
    const sp = 'agentplay_write';
    this.db.run(`SAVEPOINT ${sp}`);
    try {
      const before = this.snapshot();
      const numeric = this.runAll(sql);
      const numericTable = this.snapshot();
      this.db.run(`ROLLBACK TO ${sp}`);
      this.setMode('text');
      const text = this.runAll(sql);
      const textTable = this.snapshot();
      if (numeric.ok === text.ok && numeric.text === text.text && DbEngine.sameTable(numericTable, textTable)) {
        return numeric;
      }
      this.db.run(`ROLLBACK TO ${sp}`);
      const redo = this.runAll(sql);
      this.restoreText(before, this.snapshot());
      return redo;
    } finally {
      this.tryRun(`RELEASE ${sp}`);
    }
  }

  /** The tables in the database now (names as created). */
  private tableNames(): string[] {
    const result = this.db.exec("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
    return result.length === 0 ? [] : result[0].values.map((r) => String(r[0]));
  }

  /** A result computed here (SHOW, DESCRIBE), printed as the statement's result. */
  private answer(rows: SqlCell[][], columns: string[]): ExecOutcome {
    const outcome: ExecOutcome = {
      text: truncateOutput(pyRowsRepr(rows)),
      ok: true,
      columns,
      rows: rows.slice(0, RESULT_ROWS_KEPT).map((r) => r.map(jsonCell)),
      rowsRead: rows.length,
      complete: true,
    };
    if (this.setup.hash) outcome.hash = this.hash();
    return outcome;
  }

  /** DESCRIBE t / SHOW COLUMNS FROM t, as MySQL prints them (Field, Type, Null, Key, Default, Extra). */
  private describe(table: string): SqlCell[][] {
    const result = this.db.exec(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(${quoteString(table)})`);
    if (result.length === 0) return [];
    return result[0].values.map((r) => {
      const declared = String(r[1] ?? '').toLowerCase();
      // The task table's columns are TEXT in MySQL (here NUMERIC/TEXT with a collation, see above).
      const type = table === this.table && this.flippable ? 'text' : declared.replace(/ collate \w+/, '') || 'text';
      return [String(r[0]), type, r[2] ? 'NO' : 'YES', r[4] ? 'PRI' : '', r[3] === null ? null : String(r[3]), ''];
    });
  }

  /** SHOW CREATE TABLE as MySQL 8 prints it (its defaults: InnoDB, utf8mb4, utf8mb4_0900_ai_ci). */
  private createStatement(table: string): string {
    const columns = this.describe(table).map((c) => {
      const type = String(c[1]);
      const nullable = c[2] === 'YES';
      // MySQL prints no DEFAULT for TEXT/BLOB columns; other nullable columns get DEFAULT NULL.
      const blob = /text|blob/.test(type);
      const dflt = c[4] !== null ? ` DEFAULT '${String(c[4]).replace(/^'|'$/g, '')}'` : nullable && !blob ? ' DEFAULT NULL' : '';
      return `  \`${String(c[0]).replaceAll('`', '``')}\` ${type}${nullable ? '' : ' NOT NULL'}${dflt}`;
    });
    return `CREATE TABLE \`${table.replaceAll('`', '``')}\` (\n${columns.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`;
  }

  /** Runs one reply's SQL as the agent's MySQL statement and prints the result as AgentBench does. */
  exec(sql: string): ExecOutcome {
    this.setMode('numeric');
    this.agentSql = sql;
    const tables = this.tableNames();
    let translation: ReturnType<typeof translate>;
    try {
      translation = translate(sql, { tables, textColumns: this.textColumns, database: this.table });
    } catch (err) {
      // A bug in the translation layer must not end the episode: report it as MySQL's generic error.
      translation = { kind: 'error', error: { code: 1105, state: 'HY000', message: `agentplay could not translate this statement (${errorMessage(err)})` } };
    }
    switch (translation.kind) {
      case 'error': {
        const outcome: ExecOutcome = { text: truncateOutput(errorText(translation.error)), ok: false, columns: [], rows: [], rowsRead: 0, complete: false };
        if (this.setup.hash) outcome.hash = this.hash();
        return outcome;
      }
      case 'show-tables': {
        const names = [...tables].sort();
        return this.answer(names.map((n) => (translation.full ? [n, 'BASE TABLE'] : [n])), translation.full ? ['Tables', 'Table_type'] : ['Tables']);
      }
      case 'describe':
        return this.answer(this.describe(translation.table), ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra']);
      case 'show-create':
        return this.answer([[translation.table, this.createStatement(translation.table)]], ['Table', 'Create Table']);
      case 'show-databases':
        // MySQL 8's system schemas and the task's database (AgentBench names it after the table).
        return this.answer([['information_schema'], [this.table], ['mysql'], ['performance_schema'], ['sys']], ['Database']);
      case 'noop':
        return this.answer([], []);
      case 'sql':
        break;
    }
    registerFunctions(this.db, translation.functions, this.registered);
    if (translation.afterNames) {
      // MySQL resolves names first: an unknown column is reported before ONLY_FULL_GROUP_BY.
      let unresolved: unknown = null;
      try {
        this.db.prepare(translation.sql).free();
      } catch (err) {
        unresolved = err;
      }
      const error = unresolved === null ? translation.afterNames : fromSqlite(errorMessage(unresolved), sql, this.table);
      const outcome: ExecOutcome = { text: truncateOutput(errorText(error)), ok: false, columns: [], rows: [], rowsRead: 0, complete: false };
      if (this.setup.hash) outcome.hash = this.hash();
      return outcome;
    }
    this.columnTypes = translation.columnTypes;
    const run = translation.sql;
    const words = sqlWords(run);
    const kind = classifyWords(words);
    const form = semanticForm(words);
    let result: RunResult;
    if (kind === 'read') {
      this.setMode(form);
      result = this.runAll(run);
    } else if (kind === 'write' && form === 'numeric') {
      result = this.runWrite(run);
    } else {
      this.setMode('text');
      result = this.runAll(run);
      // Upstream commits after every statement (conn.commit()); a no-op unless the agent opened a transaction.
      if (kind === 'transaction') this.tryRun('COMMIT');
    }
    this.columnTypes = null;
    this.setMode('numeric');
    const outcome: ExecOutcome = { ...result };
    if (this.setup.hash) outcome.hash = this.hash();
    return outcome;
  }

  /** The check hash of the task table now (upstream's md5 query), or the error text when the table cannot be read. */
  hash(): string {
    try {
      const result = this.db.exec(this.hashSql);
      const rows = result.length === 0 ? [] : (result[0].values as (string | null)[][]);
      return tableHashAnswer(rows);
    } catch (err) {
      return errorMessage(err);
    }
  }

  close(): void {
    this.db.close();
  }
}
