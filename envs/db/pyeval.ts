/**
 * Just enough of Python's `eval` to read a final answer the way AgentBench's DB
 * metric does (`list(eval(answer))`, README.md, Upstream): literals only — strings
 * (prefixes r/u/b, triple quotes, escapes, adjacent-literal concatenation),
 * int/float (underscores, 0x/0o/0b, signs), None/True/False, lists, tuples, sets,
 * dicts, f-strings without fields, and comments. Anything else (names, operators,
 * calls, complex numbers) is reported as a failure; for the metric that is the same as Python's
 * exception, so the raw answer string is used instead.
 */

export type PyValue =
  | { t: 'str'; v: string }
  | { t: 'bytes'; v: number[] }
  | { t: 'int'; v: bigint }
  | { t: 'float'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'none' }
  | { t: 'list' | 'tuple' | 'set'; items: PyValue[] }
  | { t: 'dict'; keys: PyValue[]; values: PyValue[] };

class PySyntaxError extends Error {}

/**
 * CPython's tokenizer refuses more than 200 open brackets (MAXLEVEL: "too many nested
 * parentheses"), so eval raises and the metric falls back to the raw string; the limit also
 * keeps this recursive parser far from the JavaScript stack limit.
 */
export const MAX_NESTING = 200;

const WS = /[ \t\f]/;
const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  fail(why: string): never {
    throw new PySyntaxError(why);
  }

  /** Skips spaces, comments and (inside brackets) newlines and line continuations. */
  skip(depth: number): void {
    const s = this.s;
    for (;;) {
      const ch = s[this.i];
      if (ch === undefined) return;
      if (WS.test(ch)) this.i++;
      else if (ch === '#') {
        while (this.i < s.length && s[this.i] !== '\n' && s[this.i] !== '\r') this.i++;
      } else if (ch === '\\' && (s[this.i + 1] === '\n' || s[this.i + 1] === '\r')) {
        this.i += s[this.i + 1] === '\r' && s[this.i + 2] === '\n' ? 3 : 2;
      } else if ((ch === '\n' || ch === '\r') && depth > 0) this.i++;
      else return;
    }
  }

  /** The whole input: an expression list (a bare tuple when it has a comma), then only blank lines/comments. */
  parseTop(): PyValue {
    const value = this.parseList(0, null);
    this.skip(0);
    while (this.i < this.s.length) {
      const ch = this.s[this.i];
      if (ch === '\n' || ch === '\r') {
        this.i++;
        this.skip(0);
      } else this.fail('unexpected text after expression');
    }
    return value;
  }

  /** testlist: one value, or a tuple when commas separate values; stops at `close` (or end). */
  parseList(depth: number, close: string | null): PyValue {
    this.skip(depth);
    const items: PyValue[] = [];
    let comma = false;
    for (;;) {
      this.skip(depth);
      const ch = this.s[this.i];
      if (ch === undefined || ch === close || (close === null && (ch === '\n' || ch === '\r'))) break;
      items.push(this.parseValue(depth));
      this.skip(depth);
      if (this.s[this.i] === ',') {
        this.i++;
        comma = true;
      } else break;
    }
    if (items.length === 0) this.fail('empty expression');
    return comma ? { t: 'tuple', items } : items[0];
  }

  parseValue(depth: number): PyValue {
    this.skip(depth);
    const s = this.s;
    const ch = s[this.i];
    if (ch === undefined) this.fail('unexpected end');
    if (ch === '-' || ch === '+') {
      // A chain of signs is read in a loop (no recursion per sign), then applied innermost first.
      const signs: string[] = [];
      while (s[this.i] === '-' || s[this.i] === '+') {
        signs.push(s[this.i]);
        this.i++;
        this.skip(depth);
      }
      let value = this.parseValue(depth);
      for (let k = signs.length - 1; k >= 0; k--) value = unary(signs[k], value);
      return value;
    }
    if ((ch === '[' || ch === '(' || ch === '{') && depth >= MAX_NESTING) this.fail('too many nested parentheses');
    if (ch === '[') {
      this.i++;
      const items = this.parseItems(depth + 1, ']');
      return { t: 'list', items };
    }
    if (ch === '(') {
      this.i++;
      this.skip(depth + 1);
      if (s[this.i] === ')') {
        this.i++;
        return { t: 'tuple', items: [] };
      }
      const inner = this.parseList(depth + 1, ')');
      this.skip(depth + 1);
      if (s[this.i] !== ')') this.fail('expected )');
      this.i++;
      return inner;
    }
    if (ch === '{') {
      this.i++;
      return this.parseBrace(depth + 1);
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(s[this.i + 1] ?? ''))) return this.parseNumber();
    if (ch === '"' || ch === "'") return this.parseStrings(depth);
    if (IDENT_START.test(ch)) {
      let j = this.i;
      while (j < s.length && IDENT.test(s[j])) j++;
      const word = s.slice(this.i, j);
      const quote = s[j];
      if ((quote === '"' || quote === "'") && /^(r|u|b|br|rb|f|rf|fr)$/i.test(word)) return this.parseStrings(depth);
      this.i = j;
      if (word === 'None') return { t: 'none' };
      if (word === 'True') return { t: 'bool', v: true };
      if (word === 'False') return { t: 'bool', v: false };
      this.fail(`name ${word}`);
    }
    this.fail(`unexpected ${ch}`);
  }

  /** Comma-separated values up to `close`, trailing comma allowed. */
  parseItems(depth: number, close: string): PyValue[] {
    const items: PyValue[] = [];
    for (;;) {
      this.skip(depth);
      if (this.s[this.i] === close) {
        this.i++;
        return items;
      }
      items.push(this.parseValue(depth));
      this.skip(depth);
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== close) this.fail(`expected , or ${close}`);
    }
  }

  parseBrace(depth: number): PyValue {
    this.skip(depth);
    if (this.s[this.i] === '}') {
      this.i++;
      return { t: 'dict', keys: [], values: [] };
    }
    const first = this.parseValue(depth);
    this.skip(depth);
    if (this.s[this.i] === ':') {
      const keys = [first];
      const values: PyValue[] = [];
      this.i++;
      values.push(this.parseValue(depth));
      for (;;) {
        this.skip(depth);
        if (this.s[this.i] === '}') {
          this.i++;
          return { t: 'dict', keys, values };
        }
        if (this.s[this.i] !== ',') this.fail('expected , or }');
        this.i++;
        this.skip(depth);
        if (this.s[this.i] === '}') {
          this.i++;
          return { t: 'dict', keys, values };
        }
        keys.push(this.parseValue(depth));
        this.skip(depth);
        if (this.s[this.i] !== ':') this.fail('expected :');
        this.i++;
        values.push(this.parseValue(depth));
      }
    }
    const items = [first];
    if (this.s[this.i] === ',') {
      this.i++;
      items.push(...this.parseItems(depth, '}'));
    } else if (this.s[this.i] === '}') this.i++;
    else this.fail('expected , or }');
    return { t: 'set', items };
  }

  parseNumber(): PyValue {
    const s = this.s.slice(this.i);
    const radix = /^0([xX](?:_?[0-9a-fA-F])+|[oO](?:_?[0-7])+|[bB](?:_?[01])+)/.exec(s);
    let text: string;
    let value: PyValue;
    if (radix) {
      text = radix[0];
      const digits = text.slice(2).replace(/_/g, '');
      const base = text[1].toLowerCase();
      value = { t: 'int', v: BigInt(`0${base}${digits}`) };
    } else {
      const m = /^(?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?/.exec(s);
      text = m ? m[0] : '';
      if (text === '' || text === '.') this.fail('bad number');
      const clean = text.replace(/_/g, '');
      if (/[.eE]/.test(clean)) value = { t: 'float', v: Number(clean) };
      else {
        if (/^0+[1-9]/.test(clean)) this.fail('leading zeros');
        value = { t: 'int', v: BigInt(clean) };
      }
    }
    const after = s[text.length];
    if (after !== undefined && /[A-Za-z0-9_]/.test(after)) this.fail('bad number suffix');
    this.i += text.length;
    return value;
  }

  /** One or more adjacent string literals (all str or all bytes). */
  parseStrings(depth: number): PyValue {
    let kind: 'str' | 'bytes' | null = null;
    let text = '';
    const bytes: number[] = [];
    for (;;) {
      this.skip(depth);
      const lit = this.readLiteral();
      if (!lit) break;
      if (kind !== null && kind !== lit.kind) this.fail('cannot mix bytes and str');
      kind = lit.kind;
      if (lit.kind === 'str') text += lit.text;
      else bytes.push(...lit.bytes);
    }
    if (kind === null) this.fail('expected string');
    return kind === 'str' ? { t: 'str', v: text } : { t: 'bytes', v: bytes };
  }

  readLiteral(): { kind: 'str'; text: string } | { kind: 'bytes'; bytes: number[] } | null {
    const s = this.s;
    let j = this.i;
    let prefix = '';
    while (j < s.length && /[A-Za-z]/.test(s[j]) && prefix.length < 2) prefix += s[j++];
    const quote = s[j];
    if (quote !== '"' && quote !== "'") return null;
    const p = prefix.toLowerCase();
    if (!['', 'r', 'u', 'b', 'br', 'rb', 'f', 'rf', 'fr'].includes(p)) return null;
    const raw = p.includes('r');
    const isBytes = p.includes('b');
    const triple = s[j + 1] === quote && s[j + 2] === quote;
    const delim = triple ? quote.repeat(3) : quote;
    let k = j + delim.length;
    let body = '';
    for (;;) {
      if (k >= s.length) this.fail('unterminated string');
      if (s.startsWith(delim, k)) break;
      const ch = s[k];
      if (!triple && (ch === '\n' || ch === '\r')) this.fail('newline in string');
      if (ch === '\\') {
        if (k + 1 >= s.length) this.fail('unterminated string');
        body += ch + s[k + 1];
        k += 2;
      } else {
        body += ch;
        k++;
      }
    }
    this.i = k + delim.length;
    // An f-string is only a literal without replacement fields ({{ and }} are escaped braces).
    if (p.includes('f')) {
      if (/[{}]/.test(body.replaceAll('{{', '').replaceAll('}}', ''))) this.fail('f-string with fields');
      body = body.replaceAll('{{', '{').replaceAll('}}', '}');
    }
    if (isBytes && /[^\x00-\x7f]/.test(body)) this.fail('non-ASCII in bytes');
    const text = raw ? body : unescape(body, isBytes, (why) => this.fail(why));
    if (!isBytes) return { kind: 'str', text };
    // After unescaping, every char is ASCII or a \x / octal escape (<= 0xff).
    return { kind: 'bytes', bytes: Array.from(text, (ch) => ch.charCodeAt(0)) };
  }
}

function unescape(body: string, isBytes: boolean, fail: (why: string) => never): string {
  let out = '';
  for (let k = 0; k < body.length; k++) {
    const ch = body[k];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = body[++k];
    switch (e) {
      case '\n':
        break;
      case '\r':
        if (body[k + 1] === '\n') k++;
        break;
      case '\\':
      case "'":
      case '"':
        out += e;
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x': {
        const h = body.slice(k + 1, k + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(h)) fail('bad \\x escape');
        out += String.fromCharCode(parseInt(h, 16));
        k += 2;
        break;
      }
      case 'u':
      case 'U': {
        if (isBytes) {
          out += '\\' + e;
          break;
        }
        const n = e === 'u' ? 4 : 8;
        const h = body.slice(k + 1, k + 1 + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) fail('bad unicode escape');
        const code = parseInt(h, 16);
        if (code > 0x10ffff) fail('unicode escape out of range');
        out += String.fromCodePoint(code);
        k += n;
        break;
      }
      case 'N':
        if (isBytes) out += '\\N';
        else fail('\\N{...} escapes are not supported');
        break;
      default:
        if (e !== undefined && /[0-7]/.test(e)) {
          let oct = e;
          while (oct.length < 3 && /[0-7]/.test(body[k + 1] ?? '')) oct += body[++k];
          out += String.fromCharCode(parseInt(oct, 8) & (isBytes ? 0xff : 0x1ff));
        } else out += '\\' + (e ?? '');
    }
  }
  return out;
}

function unary(op: string, v: PyValue): PyValue {
  const neg = op === '-';
  if (v.t === 'int') return { t: 'int', v: neg ? -v.v : v.v };
  if (v.t === 'bool') return { t: 'int', v: neg ? -BigInt(v.v ? 1 : 0) : BigInt(v.v ? 1 : 0) };
  if (v.t === 'float') return { t: 'float', v: neg ? -v.v : v.v };
  throw new PySyntaxError('bad operand for unary operator');
}

/**
 * Python's `eval(text)` for literal expressions; null where Python would raise
 * (or where the expression is beyond this subset). Like CPython's eval, leading
 * spaces and tabs are ignored.
 */
export function pyLiteralEval(text: string): PyValue | null {
  try {
    const parser = new Parser(text.replace(/^[ \t]+/, ''));
    return parser.parseTop();
  } catch (err) {
    if (err instanceof PySyntaxError) return null;
    throw err;
  }
}

/** Python's `list(value)`, or null where it raises TypeError. */
export function pyList(value: PyValue): PyValue[] | null {
  switch (value.t) {
    case 'list':
    case 'tuple':
    case 'set':
      return value.items;
    case 'dict':
      return value.keys;
    case 'str':
      return Array.from(value.v, (ch) => ({ t: 'str', v: ch }) as PyValue);
    case 'bytes':
      return value.v.map((b) => ({ t: 'int', v: BigInt(b) }) as PyValue);
    default:
      return null;
  }
}

// Python's str.isspace set, used by float() and str.strip().
const PY_SPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python's str.strip() with no argument. */
export function pyStrip(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && PY_SPACE.includes(text[a])) a++;
  while (b > a && PY_SPACE.includes(text[b - 1])) b--;
  return text.slice(a, b);
}

const FLOAT_TEXT = /^[+-]?(?:(?:[0-9](?:_?[0-9])*)?\.?(?:[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?)$/;

/** Python's `float(value)`; null where it raises ValueError/TypeError (or OverflowError). */
export function pyFloat(value: PyValue): number | null {
  switch (value.t) {
    case 'float':
      return value.v;
    case 'bool':
      return value.v ? 1 : 0;
    case 'int': {
      const n = Number(value.v);
      return Number.isFinite(n) ? n : null;
    }
    case 'str': {
      const s = pyStrip(value.v);
      const special = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
      if (special) {
        if (special[2].toLowerCase() === 'nan') return NaN;
        return special[1] === '-' ? -Infinity : Infinity;
      }
      if (!FLOAT_TEXT.test(s) || !/[0-9]/.test(s)) return null;
      const mantissa = s.replace(/^[+-]/, '').split(/[eE]/)[0];
      if (!/[0-9]/.test(mantissa)) return null;
      return Number(s.replace(/_/g, ''));
    }
    default:
      return null;
  }
}

/** Python `a == b` for the values pyLiteralEval makes (numbers compare across int/float/bool). */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== null || nb !== null) {
    if (na === null || nb === null) return false;
    return numericEquals(na, nb);
  }
  if (a.t !== b.t) {
    return false;
  }
  switch (a.t) {
    case 'str':
      return a.v === (b as { v: string }).v;
    case 'none':
      return true;
    case 'bytes': {
      const bv = (b as { v: number[] }).v;
      return a.v.length === bv.length && a.v.every((x, i) => x === bv[i]);
    }
    case 'list':
    case 'tuple': {
      const bi = (b as { items: PyValue[] }).items;
      return a.items.length === bi.length && a.items.every((x, i) => pyEquals(x, bi[i]));
    }
    case 'set': {
      return setEquals(a.items, (b as { items: PyValue[] }).items) === true;
    }
    case 'dict': {
      const bd = b as { keys: PyValue[]; values: PyValue[] };
      if (a.keys.length !== bd.keys.length) return false;
      return a.keys.every((k, i) => {
        const j = bd.keys.findIndex((x) => pyEquals(x, k));
        return j >= 0 && pyEquals(a.values[i], bd.values[j]);
      });
    }
    default:
      return false;
  }
}

type Num = { int: bigint } | { float: number };

function numeric(v: PyValue): Num | null {
  if (v.t === 'int') return { int: v.v };
  if (v.t === 'bool') return { int: v.v ? 1n : 0n };
  if (v.t === 'float') return { float: v.v };
  return null;
}

function numericEquals(a: Num, b: Num): boolean {
  if ('int' in a && 'int' in b) return a.int === b.int;
  if ('float' in a && 'float' in b) return a.float === b.float;
  const i = 'int' in a ? a.int : (b as { int: bigint }).int;
  const f = 'float' in a ? a.float : (b as { float: number }).float;
  return Number.isInteger(f) && BigInt(f) === i;
}

function hashable(v: PyValue): boolean {
  if (v.t === 'list' || v.t === 'dict' || v.t === 'set') return false;
  if (v.t === 'tuple') return v.items.every(hashable);
  return true;
}

/** Python `set(a) == set(b)`; null where building a set raises (an unhashable element). */
export function setEquals(a: readonly PyValue[], b: readonly PyValue[]): boolean | null {
  if (!a.every(hashable) || !b.every(hashable)) return null;
  const inB = (x: PyValue) => b.some((y) => pyEquals(x, y));
  const inA = (y: PyValue) => a.some((x) => pyEquals(x, y));
  return a.every(inB) && b.every(inA);
}
