/**
 * Python's repr of the values a MySQL cursor returns, as AgentBench prints a query
 * result: `str(cursor.fetchall())`, a list of tuples (README.md, Upstream). Also the
 * observation cut: more than 800 characters (Python counts code points) keeps the
 * first 800 and appends "[TRUNCATED]".
 */

/** A MySQL DECIMAL as Python's decimal.Decimal (mysql-connector returns DECIMAL columns so). */
export class PyDecimal {
  constructor(readonly digits: string) {}
  toString(): string {
    return this.digits;
  }
}

/** A MySQL DATE as Python's datetime.date. */
export class PyDate {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
  ) {}
  toString(): string {
    return `${String(this.year).padStart(4, '0')}-${String(this.month).padStart(2, '0')}-${String(this.day).padStart(2, '0')}`;
  }
}

/** A cell as sql.js returns it with `useBigInt` (INTEGER as bigint, REAL as number), or typed by the MySQL layer. */
export type SqlCell = string | number | bigint | null | Uint8Array | PyDecimal | PyDate;

export const OUTPUT_LIMIT = 800;
export const TRUNCATED_MARK = '[TRUNCATED]';

// Python's str.isprintable is false for these general categories (space U+0020 excepted).
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** repr(str): single quotes unless the text has a ' and no ", escapes as CPython's unicode_repr. */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + hex(code, 2);
    else if (code < 0x7f) out += ch;
    else if (code === 0x20 || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += '\\x' + hex(code, 2);
    else if (code <= 0xffff) out += '\\u' + hex(code, 4);
    else out += '\\U' + hex(code, 8);
  }
  return out + quote;
}

/** repr(bytes): b'...' with the same quote rule; non-ASCII and control bytes as \xhh. */
export function pyBytesRepr(bytes: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const b of bytes) {
    if (b === 0x27) hasSingle = true;
    else if (b === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? 0x22 : 0x27;
  let out = 'b' + String.fromCharCode(quote);
  for (const b of bytes) {
    if (b === quote || b === 0x5c) out += '\\' + String.fromCharCode(b);
    else if (b === 0x09) out += '\\t';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b < 0x20 || b >= 0x7f) out += '\\x' + hex(b, 2);
    else out += String.fromCharCode(b);
  }
  return out + String.fromCharCode(quote);
}

/**
 * repr(float): the shortest round-trip digits (JavaScript and Python agree on them),
 * laid out as Python does: exponent form when the decimal point position is <= -4 or > 16,
 * otherwise fixed with at least one fractional digit ("2011.0").
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const decpt = Number(exp) + 1;
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const rest = digits.length > 1 ? '.' + digits.slice(1) : '';
    return `${sign}${digits[0]}${rest}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** repr of one cell as the MySQL connector would hand it to Python. */
export function pyCellRepr(cell: SqlCell): string {
  if (cell === null) return 'None';
  if (typeof cell === 'string') return pyStrRepr(cell);
  if (typeof cell === 'bigint') return cell.toString();
  if (typeof cell === 'number') return pyFloatRepr(cell);
  if (cell instanceof PyDecimal) return `Decimal('${cell.digits}')`;
  if (cell instanceof PyDate) return `datetime.date(${cell.year}, ${cell.month}, ${cell.day})`;
  return pyBytesRepr(cell);
}

/** repr of a row tuple: "('a',)" for one value, "('a', 'b')" for more. */
export function pyTupleRepr(row: readonly SqlCell[]): string {
  if (row.length === 1) return `(${pyCellRepr(row[0])},)`;
  return `(${row.map(pyCellRepr).join(', ')})`;
}

/** str(list_of_tuples) in full. */
export function pyRowsRepr(rows: readonly (readonly SqlCell[])[]): string {
  return `[${rows.map(pyTupleRepr).join(', ')}]`;
}

/** repr of a list of str, e.g. the oracle's final answer `["a", 'b']` as Python prints it. */
export function pyStrListRepr(items: readonly string[]): string {
  return `[${items.map(pyStrRepr).join(', ')}]`;
}

/** Number of code points (Python's len) of a string. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The first `count` code points of a string. */
export function codePointPrefix(text: string, count: number): string {
  let n = 0;
  let i = 0;
  while (i < text.length && n < count) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    } else i++;
    n++;
  }
  return text.slice(0, i);
}

/** AgentBench's cut: `result[:800] + "[TRUNCATED]"` when `len(result) > 800`. */
export function truncateOutput(text: string, limit = OUTPUT_LIMIT): string {
  if (text.length <= limit || codePointLength(text) <= limit) return text;
  return codePointPrefix(text, limit) + TRUNCATED_MARK;
}

/**
 * Builds `str(rows)` row by row and says when more rows cannot change the printed
 * text any more (it is already longer than the limit), so a huge result need not be read.
 */
export class RowsReprBuilder {
  private text = '[';
  private points = 1;
  private count = 0;

  constructor(private readonly limit = OUTPUT_LIMIT) {}

  /** Adds a row; returns false once the text is past the limit (the rest would be cut). */
  add(row: readonly SqlCell[]): boolean {
    const piece = (this.count === 0 ? '' : ', ') + pyTupleRepr(row);
    this.text += piece;
    this.points += codePointLength(piece);
    this.count++;
    return this.points <= this.limit;
  }

  get rows(): number {
    return this.count;
  }

  /** The observation: the whole repr, or its first `limit` code points + "[TRUNCATED]". */
  finish(): string {
    if (this.points + 1 <= this.limit) return this.text + ']';
    return truncateOutput(this.text + ']', this.limit);
  }
}
