/**
 * TextWorld's game grammar (README.md, Upstream: textworld/envs/pddl/logic and textgen): the
 * `.twl2` text every ALFWorld game carries — the action templates and feedback rules, and a
 * context-sensitive grammar whose rules expand to the game's text.
 *
 * A rule's right-hand side is a sequence of symbols:
 *   plain text · `#name#` another rule · `{expr}` or `{expr | query}` · `[{…}]` a list.
 * `{expr | query}` yields the expression once per answer of the query (a conjunction of facts
 * with typed placeholders, answered over the state's facts in sorted order); `[…]` joins those
 * with the grammar's #list_separator# and #list_last_separator# (#list_empty# when none). A rule
 * with several alternatives takes the first whose `condition` query has an answer.
 *
 * Parsing follows the TatSu grammar (textgen.ebnf): tabs between symbols are skipped, and at the
 * start of a line the "comment" pattern `(//.*|\s*)\n?` is skipped too (so a text that starts
 * with a newline loses it).
 */

export type Sym =
  | { k: 'text'; text: string }
  | { k: 'rule'; name: string }
  | { k: 'cond'; expr: Sym; given: string | null }
  | { k: 'list'; inner: Sym }
  | { k: 'eval'; expr: string };

export interface GrammarRule {
  rhs: Sym[];
  condition: string;
}

export interface ActionText {
  /** The command template, e.g. "take {o} from {r}". */
  template: string;
  /** The feedback rule, e.g. "#PickupObject.feedback#". */
  feedback: string;
}

export interface GameGrammar {
  /** Lowercased action name → its template and feedback. */
  actions: Map<string, ActionText>;
  rules: Map<string, GrammarRule[]>;
}

export class GrammarError extends Error {}

// -- the .twl2 document ---------------------------------------------------------

/** Reads a `.twl2` document: its `grammar :: """{json}""";` blocks and `action Name { … }` blocks. */
export function parseTwl2(text: string): GameGrammar {
  const actions = new Map<string, ActionText>();
  const json: Record<string, { rhs: string; condition?: string }[]> = {};
  let i = 0;
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i++;
      if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
      else return;
    }
  };
  const expect = (s: string) => {
    skip();
    if (!text.startsWith(s, i)) throw new GrammarError(`grammar file: expected "${s}" at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
    i += s.length;
  };
  const block = (): string => {
    expect('"""');
    const end = text.indexOf('"""', i);
    if (end < 0) throw new GrammarError('grammar file: unterminated """ block');
    const body = text.slice(i, end);
    i = end + 3;
    return body;
  };
  const str = (): string => {
    expect('"');
    const end = text.indexOf('"', i);
    if (end < 0) throw new GrammarError('grammar file: unterminated string');
    const body = text.slice(i, end);
    i = end + 1;
    return body;
  };
  const addJson = (body: string, dropHashLines: boolean) => {
    const src = dropHashLines ? body.split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n') : body;
    Object.assign(json, JSON.parse(src));
  };
  for (;;) {
    skip();
    if (i >= text.length) break;
    if (text.startsWith('grammar', i)) {
      i += 'grammar'.length;
      expect('::');
      addJson(block(), false);
      expect(';');
    } else if (text.startsWith('action', i)) {
      i += 'action'.length;
      skip();
      const m = /^[\w/-]+/.exec(text.slice(i));
      if (!m) throw new GrammarError(`grammar file: expected an action name at ${i}`);
      i += m[0].length;
      expect('{');
      const entry: ActionText = { template: '', feedback: '' };
      for (;;) {
        skip();
        if (text[i] === '}') {
          i++;
          break;
        }
        const key = /^\w+/.exec(text.slice(i))?.[0];
        if (!key) throw new GrammarError(`grammar file: expected a field in action ${m[0]}`);
        i += key.length;
        expect('::');
        if (key === 'template') entry.template = str();
        else if (key === 'feedback') entry.feedback = str();
        else if (key === 'grammar') addJson(block(), true);
        else if (key === 'pddl') block();
        else throw new GrammarError(`grammar file: unknown field "${key}" in action ${m[0]}`);
        expect(';');
      }
      actions.set(m[0].toLowerCase(), entry);
    } else throw new GrammarError(`grammar file: unexpected text at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
  }
  const rules = new Map<string, GrammarRule[]>();
  for (const [name, alternatives] of Object.entries(json)) {
    rules.set(
      name,
      alternatives.map((r) => ({ rhs: parseSymbols(r.rhs), condition: r.condition ?? '' })),
    );
  }
  return { actions, rules };
}

// -- right-hand sides -------------------------------------------------------------

const LITERAL = /^[^;|"<>[\]#{}]*/;
const TAG = /^[\w()/!<>\-\s,.]+/;
const STATEMENT = /^[^|[\]{}\n<>]+/;
const GIVEN = /^[^;|{}\n[\]#]+/;

const parsed = new Map<string, Sym[]>();

/** Parses a right-hand side (memoised: templates and feedback rules are parsed at every step). */
export function parseSymbols(src: string): Sym[] {
  let out = parsed.get(src);
  if (!out) {
    out = new SymbolReader(src).symbols();
    parsed.set(src, out);
  }
  return out;
}

class SymbolReader {
  private i = 0;
  constructor(private readonly s: string) {}

  private fail(what: string): never {
    throw new GrammarError(`grammar: expected ${what} at ${this.i} in ${JSON.stringify(this.s)}`);
  }

  /** TatSu's whitespace (tabs) and, at a line start, its comment pattern. */
  private skip(): void {
    for (;;) {
      const start = this.i;
      while (this.s[this.i] === '\t') this.i++;
      if (this.i === 0 || this.s[this.i - 1] === '\n') {
        const m = /^(\/\/.*|\s*)\n?/.exec(this.s.slice(this.i));
        if (m) this.i += m[0].length;
      }
      if (this.i === start) return;
    }
  }

  symbols(): Sym[] {
    const out: Sym[] = [];
    for (;;) {
      this.skip();
      if (this.i >= this.s.length) break;
      const sym = this.symbol();
      if (!sym) break;
      out.push(sym);
    }
    // TatSu's `symbols` rule does not ask for the end of the text: what follows the last symbol it
    // can read is dropped (the grammar's "overview(o, r)" rule ends in a stray "}").
    return out;
  }

  private symbol(): Sym | null {
    const c = this.s[this.i];
    if (c === '[') {
      this.i++;
      this.skip();
      const inner = this.conditional();
      this.skip();
      if (this.s[this.i] !== ']') this.fail("']'");
      this.i++;
      return { k: 'list', inner };
    }
    if (c === '{') return this.conditional();
    if (c === '#') return this.nonterminal();
    if (c === '"') {
      const m = LITERAL.exec(this.s.slice(this.i + 1))!;
      if (this.s[this.i + 1 + m[0].length] !== '"') this.fail('a closing quote');
      this.i += m[0].length + 2;
      return { k: 'text', text: m[0] };
    }
    const m = LITERAL.exec(this.s.slice(this.i))!;
    if (m[0].length === 0) return null;
    this.i += m[0].length;
    return { k: 'text', text: m[0] };
  }

  private nonterminal(): Sym {
    this.i++;
    this.skip();
    const m = TAG.exec(this.s.slice(this.i));
    if (!m) this.fail('a rule name');
    this.i += m[0].length;
    this.skip();
    if (this.s[this.i] !== '#') this.fail("'#'");
    this.i++;
    return { k: 'rule', name: m[0] };
  }

  private conditional(): Sym {
    if (this.s[this.i] !== '{') this.fail("'{'");
    this.i++;
    this.skip();
    let expr: Sym;
    if (this.s[this.i] === '#') expr = this.nonterminal();
    else {
      const m = STATEMENT.exec(this.s.slice(this.i));
      if (!m) this.fail('an expression');
      this.i += m[0].length;
      expr = { k: 'eval', expr: m[0] };
    }
    this.skip();
    let given: string | null = null;
    const bar = /^\s*\|\s*/.exec(this.s.slice(this.i));
    if (bar) {
      this.i += bar[0].length;
      const g = GIVEN.exec(this.s.slice(this.i));
      if (!g) this.fail('a query');
      this.i += g[0].length;
      given = g[0];
    }
    this.skip();
    if (this.s[this.i] !== '}') this.fail("'}'");
    this.i++;
    return { k: 'cond', expr, given };
  }
}

// -- queries ----------------------------------------------------------------------------

/** One atom of a conjunctive query: `pred(x:type, y:type)`. */
export interface QueryAtom {
  pred: string;
  /** Placeholders as "name:type" keys. */
  args: string[];
  /** Their types. */
  types: string[];
}

const queries = new Map<string, QueryAtom[]>();

/** Parses "p(a:agent, l:location) & q(r:receptacle, l:location)" (memoised). */
export function parseQuery(src: string): QueryAtom[] {
  let q = queries.get(src);
  if (!q) {
    q = src
      .split('&')
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .map((part) => {
        const m = /^([\w-]+)\s*\((.*)\)$/.exec(part);
        if (!m) throw new GrammarError(`grammar: cannot read the query atom "${part}"`);
        const args = m[2]
          .split(',')
          .map((a) => a.trim())
          .filter((a) => a.length > 0)
          .map((a) => a.replace(/\s*:\s*/, ':'));
        return { pred: m[1], args, types: args.map((a) => a.slice(a.indexOf(':') + 1)) };
      });
    queries.set(src, q);
  }
  return q;
}
