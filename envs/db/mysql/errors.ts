import { tokenize } from './lexer.ts';

/**
 * MySQL's error texts, as mysql-connector prints an error (`str(err)`): "<code> (<state>): <message>".
 * The translation layer raises the MySQL error itself where it knows it (syntax, reserved words,
 * table-name case); errors SQLite reports are mapped to MySQL's for the common cases.
 */

export interface MysqlError {
  code: number;
  state: string;
  message: string;
}

export function errorText(e: MysqlError): string {
  return `${e.code} (${e.state}): ${e.message}`;
}

// Where MySQL says an unknown column was: the clause of the name's first use.
const PLACES: Record<string, string> = {
  SELECT: 'field list',
  WHERE: 'where clause',
  ON: 'on clause',
  HAVING: 'having clause',
  GROUP: 'group statement',
  ORDER: 'order clause',
  SET: 'field list',
};

function columnPlace(sql: string, name: string): string {
  const last = name.split('.').pop()!.toLowerCase();
  let place = 'field list';
  for (const t of tokenize(sql)) {
    if (t.kind === 'ident' && Object.hasOwn(PLACES, t.value.toUpperCase())) place = PLACES[t.value.toUpperCase()];
    else if ((t.kind === 'ident' || t.kind === 'quoted') && t.value.toLowerCase() === last) return place;
  }
  return 'field list';
}

/** 1064: MySQL quotes the statement from the offending token on (at most 80 characters). */
export function syntaxError(rest: string): MysqlError {
  const near = Array.from(rest).slice(0, 80).join('');
  return {
    code: 1064,
    state: '42000',
    message: `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line 1`,
  };
}

export function noSuchTable(db: string, table: string): MysqlError {
  return { code: 1146, state: '42S02', message: `Table '${db}.${table}' doesn't exist` };
}

/**
 * A SQLite error message as MySQL's error. `sql` is the statement as the agent wrote it (for
 * the "near" text), `db` the database name (AgentBench names it after the task's table).
 */
export function fromSqlite(message: string, sql: string, db: string): MysqlError {
  let m: RegExpExecArray | null;
  // Raised by the MySQL functions themselves (functions.ts): "mysql:<code>:<state>:<message>".
  if ((m = /^mysql:(\d+):(\w{5}):(.*)$/s.exec(message))) return { code: Number(m[1]), state: m[2], message: m[3] };
  if ((m = /^no such table: (?:main\.)?(.*)$/.exec(message))) return noSuchTable(db, m[1]);
  if ((m = /^no such column: (.*)$/.exec(message))) {
    return { code: 1054, state: '42S22', message: `Unknown column '${m[1]}' in '${columnPlace(sql, m[1])}'` };
  }
  if ((m = /^ambiguous column name: (.*)$/.exec(message))) return { code: 1052, state: '23000', message: `Column '${m[1]}' in field list is ambiguous` };
  if ((m = /^table "?(.*?)"? already exists$/.exec(message))) return { code: 1050, state: '42S01', message: `Table '${m[1]}' already exists` };
  if ((m = /^no such function: (.*)$/.exec(message))) return { code: 1305, state: '42000', message: `FUNCTION ${db}.${m[1]} does not exist` };
  if ((m = /^wrong number of arguments to function (\w+)\(\)$/.exec(message))) return { code: 1582, state: '42000', message: `Incorrect parameter count in the call to native function '${m[1]}'` };
  if (/^misuse of aggregate/.test(message)) return { code: 1111, state: 'HY000', message: 'Invalid use of group function' };
  if ((m = /^(\d+) values for (\d+) columns$/.exec(message)) || /has \d+ columns but \d+ values were supplied/.test(message)) {
    return { code: 1136, state: '21S01', message: "Column count doesn't match value count at row 1" };
  }
  if ((m = /^near "(.*)": syntax error$/s.exec(message))) {
    const token = m[1].replace(/^`(.*)`$/s, '$1').replaceAll('``', '`');
    const at = sql.indexOf(token);
    return syntaxError(at < 0 ? '' : sql.slice(at));
  }
  if (/^incomplete input$/.test(message) || /^unrecognized token/.test(message)) return syntaxError('');
  // SQLite's hard heap limit (engine.ts) reached: MySQL's ER_OUTOFMEMORY.
  if (message === 'out of memory') return { code: 1037, state: 'HY001', message: 'Out of memory; restart server and try again' };
  if (/^UNIQUE constraint failed/.test(message)) return { code: 1062, state: '23000', message: 'Duplicate entry for key' };
  return { code: 1105, state: 'HY000', message };
}
