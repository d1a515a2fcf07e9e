/**
 * AgentBench DB: the protocol text, reply parsing, Python-repr output, answer checking,
 * the table hash and the metrics, against upstream facts (envs/db/README.md, Upstream) written out here.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DB_ACK, DB_INSTRUCTION, DB_ROUND_LIMIT, dbOpening, dbQuestion, parseReply } from '../../envs/db/protocol.ts';
import {
  RowsReprBuilder,
  pyCellRepr,
  pyFloatRepr,
  pyRowsRepr,
  pyStrRepr,
  truncateOutput,
} from '../../envs/db/pyrepr.ts';
import { pyLiteralEval, pyStrip } from '../../envs/db/pyeval.ts';
import { checkSelectAnswer, dbCategoryAccuracy, dbMetrics, dbOverallAccuracy, tableHashAnswer } from '../../envs/db/check.ts';
import { md5Hex } from '../../envs/db/md5.ts';
import { DB_ROWS, DB_TASKS, setupFor } from '../../envs/db/tasks.ts';

const FENCE = '```';

describe('db protocol text', () => {
  it('is upstream big_prompt exactly', () => {
    const expected =
      '\nI will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.\n' +
      'You have to explain the problem and your solution to me and write down your thoughts.\n' +
      'After thinking and explaining thoroughly, every round you can choose to operate or to answer.\n' +
      'your operation should be like this:\n' +
      'Action: Operation\n' +
      `${FENCE}sql\nSELECT * FROM table WHERE condition;\n${FENCE}\n` +
      'You MUST put SQL in markdown format without any other comments. Your SQL should be in one line.\n' +
      'Every time you can only execute one SQL statement. I will only execute the statement in the first SQL code block. Every time you write a SQL, I will execute it for you and give you the output.\n' +
      'If you are done operating, and you want to commit your final answer, then write down:\n' +
      'Action: Answer\n' +
      'Final Answer: ["ANSWER1", "ANSWER2", ...]\n' +
      'DO NOT write this pattern unless you are sure about your answer. I expect an accurate and correct answer.\n' +
      'Your answer should be accurate. Your answer must be exactly the same as the correct answer.\n' +
      'If the question is about modifying the database, then after done operation, your answer field can be anything.\n' +
      'If your response cannot match any pattern I mentioned earlier, you will be judged as FAIL immediately.\n' +
      'Your input will be raw MySQL response, you have to deal with it by yourself.\n';
    expect(DB_INSTRUCTION).toBe(expected);
    expect(DB_ACK).toBe('Ok.');
    expect(DB_ROUND_LIMIT).toBe(15);
  });

  it('asks the question as description + newline + add_description', () => {
    expect(dbQuestion(DB_ROWS[3])).toBe(
      'how many floors does the capitol square have?\n' +
        'The name of this table is skyscrapers_in_Columbus, and the headers of this table are Rank,Name,Height\\nft / m,Floors,Year,Notes.',
    );
    expect(dbOpening(DB_ROWS[3]).map((m) => m.role)).toEqual(['user', 'agent', 'user']);
  });

  it('has the 60 dev tasks with stable ids and upstream categories', () => {
    expect(DB_TASKS).toHaveLength(60);
    expect(DB_TASKS[0].id).toBe('db-dev-000');
    expect(DB_TASKS[59].id).toBe('db-dev-059');
    const count = (k: string) => DB_TASKS.filter((t) => t.kind === k).length;
    expect([count('SELECT'), count('INSERT'), count('UPDATE')]).toEqual([20, 20, 20]);
    expect(DB_TASKS[7].category).toBe('comparison');
    expect(new Set(DB_TASKS.map((t) => t.id)).size).toBe(60);
  });

  it('copies dev.jsonl unchanged', () => {
    // The upstream file, kept gzipped with the other conformance fixtures.
    const upstream = new URL('../fixtures/upstream/agentbench/dbbench/dev.jsonl.gz', import.meta.url);
    const rows = gunzipSync(readFileSync(upstream))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
    expect(DB_ROWS).toEqual(rows);
  });

  it('stores every cell as text, integers as their decimal text (task 31)', () => {
    const setup = setupFor(DB_ROWS[31]);
    expect(setup.rows.flat().every((v) => typeof v === 'string')).toBe(true);
    expect(DB_ROWS[31].table.table_info.rows.flat().some((v) => typeof v === 'number')).toBe(true);
  });
});

describe('db reply parsing', () => {
  const op = (sql: string) => `Action: Operation\n${FENCE}sql\n${sql}\n${FENCE}`;

  it('runs the first sql block, stripped, newlines as spaces', () => {
    const text = `Let me look.\nAction: Operation\n${FENCE}sql\n  SELECT *\nFROM t\nWHERE a = 1;  \n${FENCE}\n${FENCE}sql\nDROP TABLE t\n${FENCE}`;
    expect(parseReply(text, 0)).toEqual({ kind: 'operation', sql: 'SELECT * FROM t WHERE a = 1;' });
    // \r is not a newline for upstream's replace("\n", " ").
    expect(parseReply(op('SELECT 1\r\nFROM t'), 0)).toEqual({ kind: 'operation', sql: 'SELECT 1\r FROM t' });
  });

  it('needs "Action: Operation" exactly, followed by a newline', () => {
    expect(parseReply(`Action: Operation ${FENCE}sql\nSELECT 1\n${FENCE}`, 0).kind).toBe('invalid');
    expect(parseReply(`Action: Operation \n${FENCE}sql\nSELECT 1\n${FENCE}`, 0).kind).toBe('invalid');
    expect(parseReply(`Action: operation\n${FENCE}sql\nSELECT 1\n${FENCE}`, 0).kind).toBe('invalid');
    expect(parseReply(`Action: Operation\r\n${FENCE}sql\nSELECT 1\n${FENCE}`, 0).kind).toBe('invalid');
    expect(parseReply(`Action: Operation\n${FENCE}SQL\nSELECT 1\n${FENCE}`, 0)).toEqual({ kind: 'invalid', reason: 'no-sql-block' });
    expect(parseReply(`Action: Operation\n${FENCE}sql SELECT 1${FENCE}`, 0)).toEqual({ kind: 'invalid', reason: 'no-sql-block' });
  });

  it('only looks at the first "Action:" line', () => {
    expect(parseReply(`Action: Think\nAction: Operation\n${FENCE}sql\nSELECT 1\n${FENCE}`, 0)).toEqual({ kind: 'invalid', reason: 'no-action' });
  });

  it('takes any reply with "\\nFinal Answer:" as the answer (leading space kept), Action line or not', () => {
    expect(parseReply('Action: Answer\nFinal Answer: ["7"]', 0)).toEqual({ kind: 'answer', answer: ' ["7"]' });
    expect(parseReply('I am done.\nFinal Answer:["a", "b"]\nthanks', 3)).toEqual({ kind: 'answer', answer: '["a", "b"]' });
    expect(parseReply('Final Answer: ["7"]', 0)).toEqual({ kind: 'invalid', reason: 'no-action' });
    expect(parseReply('Action: Answer\nfinal answer: ["7"]', 0).kind).toBe('invalid');
    expect(parseReply('', 0).kind).toBe('invalid');
  });

  it('after 15 operations: operations no longer run, no answer is Task Limit Exceeded', () => {
    expect(parseReply(op('SELECT 1'), 14).kind).toBe('operation');
    expect(parseReply(op('SELECT 1'), 15)).toEqual({ kind: 'limit', answer: null });
    expect(parseReply('nonsense', 15)).toEqual({ kind: 'limit', answer: null });
    expect(parseReply('Action: Answer\nFinal Answer:', 15)).toEqual({ kind: 'limit', answer: '' });
    expect(parseReply('Action: Answer\nFinal Answer: ["x"]', 15)).toEqual({ kind: 'answer', answer: ' ["x"]' });
    expect(parseReply(`${op('SELECT 1')}\nFinal Answer: ["x"]`, 15)).toEqual({ kind: 'answer', answer: ' ["x"]' });
  });

  it("strips as Python's str.strip does", () => {
    expect(pyStrip('\x1c\x85 a b \u3000\t')).toBe('a b');
    expect(pyStrip('\ufeffa')).toBe('\ufeffa');
  });
});

describe('db result printing (Python repr of a list of tuples)', () => {
  it('prints cells as the MySQL connector hands them to Python', () => {
    expect(pyRowsRepr([])).toBe('[]');
    expect(pyRowsRepr([['26']])).toBe("[('26',)]");
    expect(pyRowsRepr([['a', null, 5n, 2011, 0.1]])).toBe("[('a', None, 5, 2011.0, 0.1)]");
    expect(pyRowsRepr([['1–0'], ['2–0']])).toBe("[('1–0',), ('2–0',)]");
  });

  it('quotes strings as Python does', () => {
    expect(pyStrRepr("Checco D'Angelo")).toBe(`"Checco D'Angelo"`);
    expect(pyStrRepr(`Checco D'Angelo\\n "Jimmy"`)).toBe(`'Checco D\\'Angelo\\\\n "Jimmy"'`);
    expect(pyStrRepr('say "hi"')).toBe(`'say "hi"'`);
    expect(pyStrRepr('tab\there\nnew\rline\x00\x7f')).toBe("'tab\\there\\nnew\\rline\\x00\\x7f'");
    expect(pyStrRepr('é ü ñ 😀 中')).toBe("'é ü ñ 😀 中'");
    expect(pyStrRepr('\xa0\ufeff\u200b\u2028')).toBe("'\\xa0\\ufeff\\u200b\\u2028'");
    expect(pyStrRepr('°′″')).toBe("'°′″'");
  });

  it('prints floats as Python repr', () => {
    const cases: [number, string][] = [
      [2011, '2011.0'],
      [1, '1.0'],
      [0.1, '0.1'],
      [27.895555555555557, '27.895555555555557'],
      [1e15, '1000000000000000.0'],
      [1e16, '1e+16'],
      [1.5e16, '1.5e+16'],
      [123456789012345680000, '1.2345678901234568e+20'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [2.5e-5, '2.5e-05'],
      [-0, '-0.0'],
      [-3.25, '-3.25'],
      [Infinity, 'inf'],
      [-Infinity, '-inf'],
      [NaN, 'nan'],
    ];
    for (const [x, repr] of cases) expect(pyFloatRepr(x)).toBe(repr);
    expect(pyCellRepr(new Uint8Array([0, 0x41, 0xff, 0x27]))).toBe(`b"\\x00A\\xff'"`);
  });

  it('cuts at 800 characters (code points) and appends [TRUNCATED]', () => {
    const exact = 'x'.repeat(800);
    expect(truncateOutput(exact)).toBe(exact);
    expect(truncateOutput(exact + 'y')).toBe(exact + '[TRUNCATED]');
    const astral = '😀'.repeat(801);
    expect(truncateOutput(astral)).toBe('😀'.repeat(800) + '[TRUNCATED]');
    expect(truncateOutput('😀'.repeat(800))).toBe('😀'.repeat(800));
  });

  it('builds the cut text row by row without reading every row', () => {
    const rows = Array.from({ length: 500 }, (_, i) => [`row ${i}`, BigInt(i)]);
    const full = truncateOutput(pyRowsRepr(rows));
    const builder = new RowsReprBuilder();
    let read = 0;
    for (const row of rows) {
      read++;
      if (!builder.add(row)) break;
    }
    expect(builder.finish()).toBe(full);
    expect(read).toBeLessThan(100);
    expect(full.endsWith('[TRUNCATED]')).toBe(true);
    expect(full.length).toBe(800 + '[TRUNCATED]'.length);
  });
});

describe('db answer checking (SELECT-type)', () => {
  it('compares one value as floats when both parse', () => {
    expect(checkSelectAnswer(' ["1"]', ['1.0'])).toBe(true);
    expect(checkSelectAnswer(' [1]', ['1.0'])).toBe(true);
    expect(checkSelectAnswer(' ["2011"]', ['2011.0'])).toBe(true);
    expect(checkSelectAnswer(' 2011', ['2011.0'])).toBe(true); // list(2011) raises: [" 2011"], float(" 2011") = 2011.0
    expect(checkSelectAnswer(' ["1e3"]', ['1000'])).toBe(true);
    expect(checkSelectAnswer(' ["1_000"]', ['1000'])).toBe(true);
    expect(checkSelectAnswer(' [True]', ['1'])).toBe(true);
    expect(checkSelectAnswer(' ["21,000"]', ['21000.0'])).toBe(false);
    expect(checkSelectAnswer(' ["5"]', ['5.0000001'])).toBe(false);
  });

  it('compares one value as strings otherwise, exactly', () => {
    expect(checkSelectAnswer(' ["March 19, 1998"]', ['March 19, 1998'])).toBe(true);
    expect(checkSelectAnswer(" ['Dick Murdoch']", ['Dick Murdoch'])).toBe(true);
    expect(checkSelectAnswer(' ["dick murdoch"]', ['Dick Murdoch'])).toBe(false);
    expect(checkSelectAnswer(' [" Dick Murdoch"]', ['Dick Murdoch'])).toBe(false);
    expect(checkSelectAnswer(' ["none"]', ['none'])).toBe(true);
    expect(checkSelectAnswer(' [None]', ['none'])).toBe(false);
    expect(checkSelectAnswer(' Dick Murdoch', ['Dick Murdoch'])).toBe(false); // eval fails: [" Dick Murdoch"]
    expect(checkSelectAnswer('Dick Murdoch', ['Dick Murdoch'])).toBe(true);
  });

  it('compares lists as sets (order and duplicates ignored)', () => {
    expect(checkSelectAnswer(' ["2–0", "1–0"]', ['1–0', '2–0'])).toBe(true);
    expect(checkSelectAnswer(' ("1–0", "2–0", "2–0")', ['1–0', '2–0'])).toBe(true);
    expect(checkSelectAnswer(' "1–0", "2–0"', ['1–0', '2–0'])).toBe(true);
    expect(checkSelectAnswer(' ["1–0"]', ['1–0', '2–0'])).toBe(false);
    expect(checkSelectAnswer(' [1, 2]', ['1', '2'])).toBe(false); // 1 != '1' in a set
    expect(checkSelectAnswer(' [["1–0"], "2–0"]', ['1–0', '2–0'])).toBe(false); // unhashable: set() raises
    expect(checkSelectAnswer(' []', ['none'])).toBe(false);
  });

  it("reads a string answer as its characters (list('ab'))", () => {
    expect(checkSelectAnswer(' "7"', ['7'])).toBe(true);
    expect(checkSelectAnswer(' "ab"', ['a', 'b'])).toBe(true);
    expect(checkSelectAnswer(' "Giza"', ['Giza'])).toBe(false);
  });

  it('evaluates Python literals', () => {
    expect(pyLiteralEval(" ['a', \"b\", 'c' 'd', r'\\n', '\\x41\\u00e9', 1_0, -2.5, 0x1F, None] # note")).toEqual({
      t: 'list',
      items: [
        { t: 'str', v: 'a' },
        { t: 'str', v: 'b' },
        { t: 'str', v: 'cd' },
        { t: 'str', v: '\\n' },
        { t: 'str', v: 'Aé' },
        { t: 'int', v: 10n },
        { t: 'float', v: -2.5 },
        { t: 'int', v: 31n },
        { t: 'none' },
      ],
    });
    expect(pyLiteralEval('{"a": 1}')).toEqual({ t: 'dict', keys: [{ t: 'str', v: 'a' }], values: [{ t: 'int', v: 1n }] });
    expect(pyLiteralEval('(1,)')).toEqual({ t: 'tuple', items: [{ t: 'int', v: 1n }] });
    expect(pyLiteralEval("f'x{{y}}'")).toEqual({ t: 'str', v: 'x{y}' });
    for (const bad of ['[a]', '[1 + 1]', "f'{x}'", '[', '01', "'abc", 'print(1)', '[1j]', '[1] [2]']) expect(pyLiteralEval(bad)).toBeNull();
  });
});

describe('db table hash', () => {
  it('is MD5 as MySQL computes it', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Hex('The quick brown fox jumps over the lazy dog')).toBe('9e107d9d372bb6826bd81d3542a419d6');
    expect(md5Hex('é')).toBe(md5Hex(new Uint8Array([0xc3, 0xa9])));
  });

  it('joins non-NULL values with commas, keeps 5 hex chars per row, sorts, joins and hashes', () => {
    const rows = [
      ['b', null, 'c'],
      ['a', 'x'],
    ];
    const r1 = md5Hex('b,c').slice(0, 5);
    const r2 = md5Hex('a,x').slice(0, 5);
    const joined = [r1, r2].sort().join(',');
    expect(tableHashAnswer(rows)).toBe(`[('${md5Hex(joined)}',)]`);
    expect(tableHashAnswer([[null, null]])).toBe(`[('${md5Hex(md5Hex('').slice(0, 5))}',)]`);
    expect(tableHashAnswer([])).toBe('[(None,)]');
  });

  it("cuts the joined row hashes at group_concat_max_len (1024)", () => {
    const rows = Array.from({ length: 200 }, (_, i) => [`row ${i}`]);
    const joined = rows
      .map((r) => md5Hex(r[0]).slice(0, 5))
      .sort()
      .join(',');
    expect(joined.length).toBeGreaterThan(1024);
    expect(tableHashAnswer(rows)).toBe(`[('${md5Hex(joined.slice(0, 1024))}',)]`);
  });

  it('reproduces answer_md5 of the unchanged table? no: every INSERT/UPDATE task changes it', () => {
    for (const row of DB_ROWS.filter((r) => r.answer_md5)) {
      expect(tableHashAnswer(setupFor(row).rows)).not.toBe(row.answer_md5);
    }
  });
});

describe('db metrics', () => {
  it('scores per category and the mean of SELECT, INSERT and UPDATE', () => {
    const outcomes = [
      { category: 'counting', correct: true },
      { category: 'other', correct: false },
      { category: 'INSERT', correct: true },
      { category: 'INSERT', correct: true },
      { category: 'UPDATE', correct: false },
      { category: 'UPDATE', correct: true },
    ];
    expect(dbCategoryAccuracy(outcomes, 'SELECT')).toBe(0.5);
    expect(dbCategoryAccuracy(outcomes, 'counting')).toBe(1);
    expect(dbCategoryAccuracy(outcomes, 'ranking')).toBe(0);
    expect(dbOverallAccuracy(outcomes)).toBeCloseTo((0.5 + 1 + 0.5) / 3);
    const m = dbMetrics(outcomes);
    expect(Object.keys(m)).toEqual([
      'other_accuracy',
      'counting_accuracy',
      'comparison_accuracy',
      'ranking_accuracy',
      'aggregation-SUM_accuracy',
      'aggregation-MIN_accuracy',
      'aggregation-MAX_accuracy',
      'aggregation-AVG_accuracy',
      'SELECT_accuracy',
      'INSERT_accuracy',
      'UPDATE_accuracy',
      'overall_cat_accuracy',
    ]);
    expect(m.INSERT_accuracy).toBe(1);
    expect(dbOverallAccuracy([])).toBe(0);
  });
});
