/**
 * AgentBench DB on sql.js: table creation, printed results, MySQL-style comparisons on TEXT
 * data, exact storage of written values, and the reference solutions of all 60 tasks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { DbEngine, classifySql } from '../../envs/db/engine.ts';
import { loadNodeSqlJs } from '../../envs/db/executor.ts';
import { DB_ROWS, setupFor, type DbSetup } from '../../envs/db/tasks.ts';
import { SELECT_REFERENCES, UNREACHABLE_REASONS } from '../../envs/db/reference.ts';
import { checkSelectAnswer } from '../../envs/db/check.ts';
import { pyStrListRepr } from '../../envs/db/pyrepr.ts';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await loadNodeSqlJs();
});

function engine(setup: Partial<DbSetup> & Pick<DbSetup, 'columns' | 'rows'>): DbEngine {
  return new DbEngine(SQL, { table: 't', hash: false, ...setup });
}

const run = (e: DbEngine, sql: string) => e.exec(sql).text;

describe('db table creation', () => {
  it('quotes any table and column name (spaces, quotes, backticks, brackets, empty)', () => {
    const table = 'odd "name" `x` \'y\' [z]';
    const columns = ['Height\\nft / m', 'Wt. (kg)', "it's", 'a "b"', '', 'Area (km²)'];
    const e = new DbEngine(SQL, { table, columns, rows: [['1', '2', '3', '4', '5', '6']], hash: true });
    expect(run(e, "SELECT * FROM `odd \"name\" ``x`` 'y' [z]`")).toBe("[('1', '2', '3', '4', '5', '6')]");
    expect(run(e, "SELECT `Height\\nft / m`, `it's`, `a \"b\"`, `` FROM `odd \"name\" ``x`` 'y' [z]`")).toBe("[('1', '3', '4', '5')]");
    // In MySQL "…" is a string, so it cannot name a table.
    expect(run(e, 'SELECT * FROM "odd ""name"" `x` \'y\' [z]"')).toMatch(/^1064 \(42000\): You have an error in your SQL syntax/);
    e.close();
  });

  it('stores the rows as the task gives them, as text', () => {
    const e = new DbEngine(SQL, setupFor(DB_ROWS[31]));
    expect(run(e, 'SELECT DISTINCT typeof(Year) FROM horse_races')).toBe("[('text',)]");
    expect(run(e, 'SELECT Year, Age FROM horse_races LIMIT 2')).toBe("[('1953', '5'), ('1954', '4')]");
    // rows 17.. hold JSON numbers upstream; MySQL stores them as their text
    expect(run(e, "SELECT Year, Age FROM horse_races WHERE Horse = 'Cigar'")).toBe("[('1997', '6')]");
    e.close();
  });

  it('creates all 60 task tables with every row', () => {
    for (const row of DB_ROWS) {
      const e = new DbEngine(SQL, setupFor(row));
      const name = row.table.table_name.replaceAll('`', '``');
      expect(run(e, `SELECT COUNT(*) FROM \`${name}\``)).toBe(`[(${row.table.table_info.rows.length},)]`);
      e.close();
    }
  });
});

describe('db printed results', () => {
  it('prints rows, NULLs, numbers and errors as upstream shows them', () => {
    const e = engine({ columns: ['a', 'b'], rows: [["O'Neil", null], ['say "hi"', '3.50']] });
    expect(run(e, 'SELECT * FROM t')).toBe(`[("O'Neil", None), ('say "hi"', '3.50')]`);
    expect(run(e, 'SELECT COUNT(*), AVG(b), SUM(b), MAX(b) FROM t')).toBe("[(2, 3.5, 3.5, '3.50')]");
    expect(run(e, 'SELECT 1/0, 10/4.0, 1e16')).toBe("[(None, Decimal('2.5000'), 1e+16)]");
    expect(run(e, "SELECT * FROM t WHERE a = 'nobody'")).toBe('[]');
    expect(run(e, 'SELECT nope FROM t')).toBe("1054 (42S22): Unknown column 'nope' in 'field list'");
    expect(run(e, 'SELEC 1')).toBe(
      "1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELEC 1' at line 1",
    );
    expect(run(e, "INSERT INTO t VALUES ('x', 'y')")).toBe('[]');
    expect(run(e, '')).toBe('1065 (42000): Query was empty');
    // AgentBench's client sends one statement: a second one is a syntax error (nothing runs).
    expect(run(e, 'SELECT 1; SELECT 2')).toMatch(/^1064 \(42000\): .* near 'SELECT 2' at line 1$/);
    expect(run(e, 'SELECT 1;')).toBe('[(1,)]');
    e.close();
  });

  it('cuts long results at 800 characters + [TRUNCATED] and stops reading rows', () => {
    const e = engine({ columns: ['a'], rows: [] });
    const out = e.exec('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, \'row\' FROM c');
    const expected = Array.from({ length: 100 }, (_, i) => `(${i + 1}, 'row')`).join(', ');
    expect(out.text).toBe(`[${expected}`.slice(0, 800) + '[TRUNCATED]');
    expect(out.complete).toBe(false);
    expect(out.rows.length).toBeLessThanOrEqual(100);
    e.close();
  });
});

describe('db memory bound', () => {
  it('a statement that needs more than the engine\'s heap limit fails with MySQL\'s out-of-memory error; the database goes on', () => {
    const e = engine({ columns: ['a'], rows: [['x']] });
    expect(run(e, 'SELECT length(randomblob(150000000))')).toBe('1037 (HY001): Out of memory; restart server and try again');
    expect(run(e, 'SELECT 1 + 1')).toBe('[(2,)]');
    expect(run(e, 'SELECT * FROM t')).toBe("[('x',)]");
    e.close();
  });
});

describe('db MySQL-style semantics on TEXT data', () => {
  const rows = [
    ['1.', 'Alpha', '12,500'],
    ['2.', 'beta', '3'],
    ['17.', 'Gamma', '9.460'],
    ['100', 'delta', '007'],
    ['9', 'EPSILON', 'abc'],
  ];
  const fresh = () => engine({ columns: ['Goal', 'Name', 'Wt'], rows });

  it('compares TEXT columns with numbers numerically', () => {
    const e = fresh();
    // Textual comparison would give '2.' > '17' and '100' < '17'.
    expect(run(e, 'SELECT Name FROM t WHERE Goal < 17')).toBe("[('Alpha',), ('beta',), ('EPSILON',)]");
    expect(run(e, 'SELECT Name FROM t WHERE Goal > 10')).toBe("[('Gamma',), ('delta',)]");
    expect(run(e, 'SELECT Name FROM t WHERE Goal BETWEEN 2 AND 17')).toBe("[('beta',), ('Gamma',), ('EPSILON',)]");
    expect(run(e, 'SELECT Name FROM t WHERE Goal IN (1, 100)')).toBe("[('Alpha',), ('delta',)]");
    expect(run(e, 'SELECT Name FROM t WHERE Wt = 7')).toBe("[('delta',)]");
    // text with text compares as text: '007' is not '7'
    expect(run(e, "SELECT Name FROM t WHERE Wt = '7'")).toBe('[]');
    // 'abc' reads as 0
    expect(run(e, 'SELECT Name FROM t WHERE Wt < 9.5')).toBe("[('beta',), ('Gamma',), ('delta',), ('EPSILON',)]");
    expect(run(e, 'SELECT Goal + 1 FROM t WHERE Name = \'beta\'')).toBe('[(3.0,)]');
    e.close();
  });

  it('compares text with a number by its numeric prefix, as MySQL does', () => {
    const e = fresh();
    // MySQL: '12,500' -> 12 and 'abc' -> 0, so only '12,500' is > 10.
    expect(run(e, 'SELECT Wt FROM t WHERE Wt > 10')).toBe("[('12,500',)]");
    e.close();
  });

  it('keeps MySQL TEXT ordering for ORDER BY, MIN and MAX (text, case-insensitive)', () => {
    const e = fresh();
    expect(run(e, 'SELECT Goal FROM t ORDER BY Goal')).toBe("[('1.',), ('100',), ('17.',), ('2.',), ('9',)]");
    expect(run(e, 'SELECT MIN(Goal), MAX(Goal) FROM t')).toBe("[('1.', '9')]");
    expect(run(e, 'SELECT Name FROM t ORDER BY Name')).toBe("[('Alpha',), ('beta',), ('delta',), ('EPSILON',), ('Gamma',)]");
    expect(run(e, 'SELECT MAX(CAST(Goal AS UNSIGNED)) FROM t')).toBe('[(100,)]');
    expect(run(e, "SELECT CAST(REPLACE(Wt, ',', '') AS UNSIGNED) FROM t WHERE Name = 'alpha'")).toBe('[(12500,)]');
    e.close();
  });

  it('compares strings case-insensitively, like utf8mb4_0900_ai_ci', () => {
    const e = fresh();
    expect(run(e, "SELECT Goal FROM t WHERE Name = 'ALPHA'")).toBe("[('1.',)]");
    expect(run(e, "SELECT COUNT(*) FROM t WHERE Name LIKE '%A%'")).toBe('[(4,)]');
    expect(run(e, "SELECT Goal FROM t WHERE Name IN ('alpha', 'BETA', 'x')")).toBe("[('1.',), ('2.',)]");
    expect(run(e, 'SELECT COUNT(DISTINCT Name) FROM t')).toBe('[(5,)]');
    e.close();
  });

  it('keeps written values exactly as the agent wrote them', () => {
    const e = fresh();
    expect(run(e, "INSERT INTO t VALUES ('08', 'new', '7.400')")).toBe('[]');
    expect(run(e, "UPDATE t SET Wt = '5.50' WHERE Name = 'beta'")).toBe('[]');
    expect(run(e, 'INSERT INTO t (Goal, Name) VALUES (10, 20)')).toBe('[]');
    expect(run(e, "SELECT Goal, Wt, typeof(Wt) FROM t WHERE Name IN ('new', 'beta', '20')")).toBe(
      "[('2.', '5.50', 'text'), ('08', '7.400', 'text'), ('10', None, 'null')]",
    );
    // and numeric comparisons still work on them
    expect(run(e, 'SELECT Name FROM t WHERE Wt BETWEEN 7.3 AND 10')).toBe("[('Gamma',), ('new',)]");
    e.close();
  });

  it('runs a write whose WHERE compares numbers with MySQL semantics, keeping untouched cells', () => {
    const e = fresh();
    expect(run(e, "UPDATE t SET Name = 'big' WHERE Goal > 10")).toBe('[]');
    expect(run(e, 'SELECT Goal, Name, Wt FROM t')).toBe(
      "[('1.', 'Alpha', '12,500'), ('2.', 'beta', '3'), ('17.', 'big', '9.460'), ('100', 'big', '007'), ('9', 'EPSILON', 'abc')]",
    );
    expect(run(e, 'DELETE FROM t WHERE Goal < 3')).toBe('[]');
    expect(run(e, 'SELECT COUNT(*), SUM(typeof(Goal) = \'text\') FROM t')).toBe("[(3, Decimal('3'))]");
    e.close();
  });

  it('matches IN lists, subqueries and self-joins on numeric-looking text', () => {
    const e = fresh();
    expect(run(e, 'SELECT Name FROM t WHERE Goal IN (1, 100, 9)')).toBe("[('Alpha',), ('delta',), ('EPSILON',)]");
    expect(run(e, "SELECT Name FROM t WHERE Goal IN ('100', '9', '17.')")).toBe("[('Gamma',), ('delta',), ('EPSILON',)]");
    expect(run(e, 'SELECT Name FROM t WHERE Goal NOT IN (100, 9, 3)')).toBe("[('Alpha',), ('beta',), ('Gamma',)]");
    expect(run(e, "SELECT Name FROM t WHERE Goal IN (SELECT Goal FROM t WHERE Name = 'delta')")).toBe("[('delta',)]");
    expect(run(e, 'SELECT COUNT(*) FROM t a JOIN t b ON a.Goal = b.Goal')).toBe('[(5,)]');
    expect(run(e, 'SELECT Name FROM t WHERE Goal = (SELECT MAX(Goal) FROM t)')).toBe("[('EPSILON',)]");
    expect(run(e, 'SELECT Name FROM t u WHERE EXISTS (SELECT 1 FROM t v WHERE v.Goal = u.Goal AND v.Goal > 10)')).toBe(
      "[('Gamma',), ('delta',)]",
    );
    e.close();
  });

  it('commits after every reply, as upstream does, and survives transaction statements', () => {
    const e = fresh();
    expect(run(e, 'BEGIN')).toBe('[]');
    expect(run(e, "UPDATE t SET Name = 'tx' WHERE Goal = '9'")).toBe('[]');
    // committed already (upstream commits after every statement): ROLLBACK does nothing
    expect(run(e, 'ROLLBACK')).toBe('[]');
    expect(run(e, "SELECT Name FROM t WHERE Goal = 9")).toBe("[('tx',)]");
    e.close();
  });

  it('classifies statements', () => {
    expect(classifySql("SELECT REPLACE(a, ',', '') FROM t WHERE b = 'UPDATE'")).toBe('read');
    expect(classifySql('select * from t; update t set a = 1')).toBe('write');
    expect(classifySql('REPLACE INTO t VALUES (1)')).toBe('write');
    expect(classifySql('SELECT "Release" FROM t -- delete')).toBe('read');
    expect(classifySql('begin; select 1')).toBe('transaction');
    expect(classifySql('SELECT release FROM t')).toBe('read');
  });

  it('provides a few MySQL functions SQLite lacks', () => {
    const e = fresh();
    expect(run(e, "SELECT LEFT('hello', 2), RIGHT('hello', 3), SUBSTRING_INDEX('a,b,c', ',', -2), MD5('abc'), UCASE('x')")).toBe(
      "[('he', 'llo', 'b,c', '900150983cd24fb0d6963f7d28e17f72', 'X')]",
    );
    expect(run(e, "SELECT Name FROM t WHERE Name REGEXP '^a'")).toBe("[('Alpha',)]");
    expect(run(e, "SELECT CONCAT(Name, '-', Goal), CONCAT_WS(',', Name, NULL, Wt) FROM t LIMIT 1")).toBe("[('Alpha-1.', 'Alpha,12,500')]");
    e.close();
  });
});

describe('db reference solutions', () => {
  it('INSERT/UPDATE: every label statement gives the table hash answer_md5', () => {
    const rows = DB_ROWS.filter((r) => r.answer_md5 !== undefined);
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      const e = new DbEngine(SQL, setupFor(row));
      const out = e.exec(row.label[0]);
      expect(out.text, row.label[0]).toBe('[]');
      expect(out.hash, row.label[0]).toBe(row.answer_md5);
      e.close();
    }
  });

  // What each reference query prints (worked out by hand from the tables, MySQL semantics).
  const PRINTED: Record<number, string> = {
    0: '[]',
    1: `[("Checco D'Angelo",)]`,
    2: "[('7',)]",
    3: "[('26',)]",
    4: '[(1,)]',
    5: '[(17,)]',
    6: "[('Dick Murdoch',)]",
    7: "[('1–0',), ('2–0',)]",
    8: '[]',
    9: '[]',
    10: "[('K255AZ',), ('K228EE',), ('K220FA',), ('K265DY',), ('K237DN',), ('K214AU',), ('K222AX',), ('K239AX',), ('K243BD',), ('K219DC',), ('K204CD',), ('K231BG',)]",
    11: "[('Beheira', '9,826')]",
    12: "[('2',)]",
    13: "[('21000',)]",
    14: '[(2011.0,)]',
    15: '[(5.0,)]',
    16: '[(5,)]',
    17: '[(None,)]',
    18: "[('32502',)]",
    19: '[(1.0,)]',
  };

  it('SELECT-type: each reference query prints what MySQL would', () => {
    for (let i = 0; i < 20; i++) {
      const e = new DbEngine(SQL, setupFor(DB_ROWS[i]));
      expect(run(e, SELECT_REFERENCES[i].sql), `task ${i}`).toBe(PRINTED[i]);
      e.close();
    }
  });

  it("SELECT-type: the label follows from the reference query's result, except the three data errors", () => {
    const reached: number[] = [];
    for (let i = 0; i < 20; i++) {
      const e = new DbEngine(SQL, setupFor(DB_ROWS[i]));
      const out = e.exec(SELECT_REFERENCES[i].sql);
      e.close();
      // The answer a reader takes from the rows: the first column; an empty result or a NULL is the dataset's "none".
      const values = out.rows.map((r) => (r[0] === null ? 'none' : String(r[0])));
      const answer = pyStrListRepr(values.length === 0 ? ['none'] : values);
      const ok = checkSelectAnswer(answer, DB_ROWS[i].label);
      expect(ok, `task ${i}: ${answer} vs ${JSON.stringify(DB_ROWS[i].label)}`).toBe(SELECT_REFERENCES[i].reachable);
      if (ok) reached.push(i);
    }
    expect(reached).toHaveLength(17);
    expect(Object.keys(UNREACHABLE_REASONS).map(Number)).toEqual([0, 11, 15]);
  });

  it("upstream's own queries where they are valid MySQL: same results as MySQL", () => {
    const expectUpstream = (i: number, printed: string) => {
      const e = new DbEngine(SQL, setupFor(DB_ROWS[i]));
      expect(run(e, DB_ROWS[i].sql!.query), `task ${i}`).toBe(printed);
      e.close();
    };
    expectUpstream(1, `[('Checco D\\'Angelo\\\\n "Jimmy"',)]`);
    expectUpstream(5, '[(2,)]');
    expectUpstream(10, PRINTED[10]);
    expectUpstream(12, "[('Magoffin',)]");
    // SUM of a TEXT column is a DOUBLE in MySQL
    expectUpstream(15, '[(5.0,)]');
    // MIN over a TEXT column is textual in MySQL: '13' < '5'.
    expectUpstream(16, "[('13',)]");
    // Silver = 0 compares numerically; MAX(Bronze) is textual.
    expectUpstream(17, "[('5',)]");
  });
});
