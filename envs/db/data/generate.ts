/**
 * Rebuilds the DB task data from verbatim copies of upstream's files (README.md here: repository, commit):
 *   dbbench-dev.json       the 60 rows of data/dbbench/dev.jsonl, objects unchanged;
 *   dbbench-standard.json  the 300 rows of data/dbbench/standard.jsonl (the test set), objects
 *                          unchanged except table cells written in JSON as numbers: they become
 *                          the text MySQL stores for them (see cellText below).
 *
 *   npx tsx envs/db/data/generate.ts [path/to/dbbench-dir]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pyFloatRepr } from '../pyrepr.ts';

const dir = process.argv[2] ?? fileURLToPath(new URL('../../../../shared/data/agentbench/dbbench/', import.meta.url));
const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

function lines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

// A number token marker: JSON.parse cannot tell 82562.0 from 82562, while upstream's Python
// (json.loads, then mysql-connector's str() of the parameter) stores '82562.0' for the first
// and '82562' for the second. Numbers are wrapped in a string carrying their source text first.
const MARK = '\u0000num:';

/** The line with every number token outside strings turned into a marked string. */
function markNumbers(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '"') {
      let j = i + 1;
      while (line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      out += line.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      let j = i + 1;
      while (j < line.length && /[0-9.eE+-]/.test(line[j])) j++;
      out += JSON.stringify(MARK + line.slice(i, j));
      i = j;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The text MySQL stores for a JSON number bound as a parameter: Python's str(int) or str(float). */
function cellText(source: string): string {
  return /[.eE]/.test(source) ? pyFloatRepr(Number(source)) : BigInt(source).toString();
}

/** Marked strings back to numbers, except table cells, which become their stored text. */
function unmark(value: unknown, inRows: boolean): unknown {
  if (typeof value === 'string' && value.startsWith(MARK)) {
    const source = value.slice(MARK.length);
    return inRows ? cellText(source) : Number(source);
  }
  if (Array.isArray(value)) return value.map((v) => unmark(v, inRows));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = unmark(v, inRows || k === 'rows');
    return out;
  }
  return value;
}

const dev = lines(`${dir}/dev.jsonl`).map((line) => JSON.parse(line) as unknown);
if (dev.length !== 60) throw new Error(`expected 60 rows in dev.jsonl, found ${dev.length}`);
writeFileSync(here('dbbench-dev.json'), JSON.stringify(dev) + '\n');
console.log(`wrote ${dev.length} rows to dbbench-dev.json`);

const standard = lines(`${dir}/standard.jsonl`).map((line) => unmark(JSON.parse(markNumbers(line)), false));
if (standard.length !== 300) throw new Error(`expected 300 rows in standard.jsonl, found ${standard.length}`);
writeFileSync(here('dbbench-standard.json'), JSON.stringify(standard) + '\n');
console.log(`wrote ${standard.length} rows to dbbench-standard.json`);
