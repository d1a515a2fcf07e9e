/**
 * One ALFWorld game: TextWorld's PddlEnv with ALFWorld's demangler, ported (README.md, Upstream).
 *
 * The rules are the game's PDDL domain and problem; the text is its grammar (grammar.ts).
 *   - The state is two sets of facts. `facts` are the true atoms (what Fast Downward tracks): they
 *     decide which actions apply and whether the goal holds. TextWorld's own copy also keeps a
 *     "not_p" fact for every atom an action deleted (it adds Fast Downward's effect atoms as facts,
 *     NegatedAtom p as not_p) until the atom is added again: `negs`. The grammar's queries read both
 *     (the look text asks for not_inreceptacle).
 *   - Applicable actions are ground as Fast Downward grounds them: typed parameters (a type with no
 *     objects, like "location,", never holds), or/exists in preconditions, and an operator whose
 *     effects are all already true by its precondition does not exist (so "go to" the receptacle
 *     you are at, or another one at the same place, is not offered).
 *   - Each applicable action's command is its template derived by the grammar; the admissible
 *     commands are those, deduplicated and sorted as plain strings ("cabinet 10" before "cabinet 2").
 *     A command (stripped) that is not one of them gives "Nothing happens.".
 *   - Names: ALFWorld's demangler. The ids (lowercased, as Fast Downward reads them) are sorted; each
 *     id "name_bar_…" is numbered within its name, the first sorted id getting the highest number
 *     ("sink…_bar_sinkbasin" is named "sinkbasin"); an id without "_bar_" keeps its text.
 */
import { parseAlfDomain, parseAlfProblem, type AlfAction, type AlfDomain, type Formula } from './pddl.ts';
import { parseQuery, parseSymbols, parseTwl2, type GameGrammar, type Sym } from './grammar.ts';
import { pyCompare } from '../pddl/text.ts';

export interface GameData {
  /** The domain's text, or the domain already read (games share one: reading it once saves each reset the work). */
  domain: string | AlfDomain;
  /** The grammar's text, or the grammar already read. */
  grammar: string | GameGrammar;
  problem: string;
}

export interface Entity {
  id: string;
  name: string;
  type: string;
}

/** A state of one game: sorted fact keys "pred arg1 arg2". */
export interface WorldState {
  facts: readonly string[];
  negs: readonly string[];
}

interface Ground {
  action: AlfAction;
  /** Parameter name (without '?') → object id, in parameter order. */
  args: string[];
  command: string;
}

/** Facts of a state indexed for joins and queries. */
/** A fact key split once: "pred a b" → its predicate and arguments (shared by every view of a game). */
interface ParsedFact {
  pred: string;
  args: string[];
}

class FactView {
  private readonly own = new Set<string>();
  private readonly byPred = new Map<string, string[][]>();
  /**
   * `lists` are each sorted as strings, and no predicate is in two of them (the true facts; the
   * "not_" facts): each predicate's facts are then in TextWorld's sorted order (ids have no spaces,
   * and a space sorts before any id character). Facts of predicates no action changes come from
   * `base` (built once per game), so a state's view holds only the facts that change.
   */
  constructor(
    lists: readonly (readonly string[])[],
    parse: (key: string) => ParsedFact,
    private readonly base?: FactView,
    private readonly staticPreds?: ReadonlySet<string>,
  ) {
    for (const keys of lists) {
      for (const key of keys) {
        const { pred, args } = parse(key);
        if (staticPreds?.has(pred)) continue;
        this.own.add(key);
        let list = this.byPred.get(pred);
        if (!list) this.byPred.set(pred, (list = []));
        list.push(args);
      }
    }
  }
  has(key: string): boolean {
    return this.own.has(key) || (this.base?.has(key) ?? false);
  }
  of(pred: string): readonly string[][] {
    if (this.base && this.staticPreds!.has(pred)) return this.base.of(pred);
    return this.byPred.get(pred) ?? [];
  }
}

const key = (pred: string, args: readonly string[]) => (args.length ? `${pred} ${args.join(' ')}` : pred);



export class World {
  readonly domain: AlfDomain;
  readonly grammar: GameGrammar;
  /** Object id → declared type. */
  readonly types = new Map<string, string>();
  readonly entities = new Map<string, Entity>();
  readonly goal: Formula;
  readonly initial: WorldState;
  private readonly objectsByType = new Map<string, string[]>();
  /** Per state object: its fact views and its ground actions (states are immutable, so they can be cached). */
  private readonly views = new WeakMap<WorldState, { view: FactView; query: FactView; grounds?: Ground[] }>();
  /** Predicates no action's effect names: their facts never change. */
  private readonly staticPreds: Set<string>;
  private readonly staticView: FactView;
  private readonly parsedFacts = new Map<string, ParsedFact>();
  /** Splits a fact key once per game (states share most of their facts). */
  private readonly parse = (key: string): ParsedFact => {
    let p = this.parsedFacts.get(key);
    if (!p) {
      const space = key.indexOf(' ');
      p = space < 0 ? { pred: key, args: [] } : { pred: key.slice(0, space), args: key.slice(space + 1).split(' ') };
      this.parsedFacts.set(key, p);
    }
    return p;
  };
  private readonly isACache = new Map<string, Map<string, boolean>>();

  constructor(data: GameData) {
    this.domain = typeof data.domain === 'string' ? parseAlfDomain(data.domain) : data.domain;
    this.grammar = typeof data.grammar === 'string' ? parseTwl2(data.grammar) : data.grammar;
    const problem = parseAlfProblem(data.problem);
    for (const o of problem.objects) this.types.set(o.name, o.type);
    for (const [name, type] of this.types) {
      let list = this.objectsByType.get(type);
      if (!list) this.objectsByType.set(type, (list = []));
      list.push(name);
    }
    this.goal = problem.goal;
    const facts = new Set(problem.init.map(([pred, ...args]) => key(pred, args)));
    this.initial = { facts: [...facts].sort(pyCompare), negs: [] };
    const changing = new Set(this.domain.actions.flatMap((a) => a.effects.map((e) => e.pred)));
    this.staticPreds = new Set(problem.init.map(([pred]) => pred).filter((pred) => !changing.has(pred)));
    this.staticView = new FactView([this.initial.facts], this.parse);
    // TextWorld's entities: every name that appears in a fact of the initial state.
    const ids = new Set<string>();
    for (const [, ...args] of problem.init) for (const a of args) ids.add(a);
    const names = demangle([...ids]);
    for (const id of ids) this.entities.set(id, { id, name: names.get(id)!, type: this.types.get(id) ?? 'object' });
  }

  /** Whether type `t` is `want` or below it (Fast Downward: every declared type is below "object"). */
  private isA(t: string, want: string): boolean {
    let byWant = this.isACache.get(t);
    if (!byWant) this.isACache.set(t, (byWant = new Map()));
    let r = byWant.get(want);
    if (r === undefined) {
      r = false;
      for (let x: string | null | undefined = t; x; x = this.domain.types.get(x)) if (x === want) r = true;
      if (want === 'object' && this.domain.types.has(t)) r = true;
      byWant.set(want, r);
    }
    return r;
  }

  private objectsOf(type: string): string[] {
    const out: string[] = [];
    for (const [t, list] of this.objectsByType) if (this.isA(t, type)) out.push(...list);
    return out;
  }

  private viewOf(state: WorldState): { view: FactView; query: FactView; grounds?: Ground[] } {
    let v = this.views.get(state);
    if (!v) {
      const view = new FactView([state.facts], this.parse, this.staticView, this.staticPreds);
      const query = state.negs.length ? new FactView([state.facts, state.negs.map((n) => 'not_' + n)], this.parse, this.staticView, this.staticPreds) : view;
      v = { view, query };
      this.views.set(state, v);
    }
    return v;
  }

  // -- conditions ------------------------------------------------------------------

  /**
   * Calls `yield_` with every binding (extending `b`) that makes `f` true in `view`; bindings may
   * repeat. `b` is extended in place and restored on the way back (no copies: grounding runs at
   * every step), so `yield_` must read it before returning.
   */
  private solve(f: Formula, b: Map<string, string>, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    switch (f.k) {
      case 'atom': {
        if (f.pred === '=') {
          // Equality of two terms (the pick-two goals' "(not (= ?o1 ?o2))"); an unbound side takes the other's value.
          const x = f.args[0].startsWith('?') ? b.get(f.args[0]) : f.args[0];
          const y = f.args[1].startsWith('?') ? b.get(f.args[1]) : f.args[1];
          if (x !== undefined && y !== undefined) {
            if (x === y) yield_();
          } else if (x !== undefined || y !== undefined) {
            const v = x === undefined ? f.args[0] : f.args[1];
            b.set(v, (x ?? y)!);
            yield_();
            b.delete(v);
          }
          return;
        }
        let unbound = 0;
        for (const t of f.args) if (t.charCodeAt(0) === 63 && !b.has(t)) unbound++;
        if (unbound === 0) {
          if (view.has(key(f.pred, f.args.map((a) => (a.charCodeAt(0) === 63 ? b.get(a)! : a))))) yield_();
          return;
        }
        const added: string[] = [];
        outer: for (const args of view.of(f.pred)) {
          if (args.length !== f.args.length) continue;
          for (let i = 0; i < args.length; i++) {
            const term = f.args[i];
            if (term.charCodeAt(0) !== 63 /* ? */) {
              if (term !== args[i]) continue outer;
            } else {
              const have = b.get(term);
              if (have === undefined) {
                if (!this.isA(this.types.get(args[i]) ?? '', varTypes.get(term) ?? 'object')) continue outer;
              } else if (have !== args[i]) continue outer;
            }
          }
          let ok = true;
          for (let i = 0; i < args.length; i++) {
            const term = f.args[i];
            if (term.charCodeAt(0) !== 63) continue;
            const have = b.get(term);
            if (have === undefined) {
              b.set(term, args[i]);
              added.push(term);
            } else if (have !== args[i]) ok = false; // the same variable twice in one atom
          }
          if (ok) yield_();
          for (const t of added) b.delete(t);
          added.length = 0;
        }
        return;
      }
      case 'not': {
        const free = freeVarsOf(f.f).filter((v) => !b.has(v));
        if (free.length > 0) {
          this.enumerate(free, b, varTypes, () => this.solveNot(f.f, b, varTypes, view, yield_));
          return;
        }
        this.solveNot(f.f, b, varTypes, view, yield_);
        return;
      }
      case 'and': {
        // A join: next, the atom with the most bound terms (then the fewest facts); a condition
        // other than an atom once its variables are bound, or last.
        const step = (rest: readonly Formula[]) => {
          if (rest.length === 0) return yield_();
          let best = -1;
          let bestScore = -Infinity;
          for (let i = 0; i < rest.length; i++) {
            const x = rest[i];
            let score: number;
            if (x.k === 'atom') {
              let bound = 0;
              for (const t of x.args) if (t.charCodeAt(0) !== 63 || b.has(t)) bound++;
              score = bound === x.args.length ? 1e6 : bound * 1e3 - view.of(x.pred).length;
            } else {
              let free = 0;
              for (const v of freeVarsOf(x)) if (!b.has(v)) free++;
              score = free === 0 ? 5e5 : -1e9;
            }
            if (score > bestScore) {
              bestScore = score;
              best = i;
            }
          }
          const chosen = rest[best];
          const others = rest.filter((_, i) => i !== best);
          this.solve(chosen, b, varTypes, view, () => step(others));
        };
        step(f.fs);
        return;
      }
      case 'or':
        for (const x of f.fs) this.solve(x, b, varTypes, view, yield_);
        return;
      case 'exists': {
        const inner = new Map(varTypes);
        for (const v of f.vars) inner.set(v.name, v.type);
        const names = f.vars.map((v) => v.name);
        this.solve(f.f, b, inner, view, () => {
          // Variables no atom bound range over their type; the witnesses are hidden from what follows.
          const done = () => {
            const saved = names.map((n) => b.get(n));
            for (const n of names) b.delete(n);
            yield_();
            names.forEach((n, i) => b.set(n, saved[i]!));
          };
          const free = names.filter((n) => !b.has(n));
          if (free.length) this.enumerate(free, b, inner, done);
          else done();
        });
        return;
      }
    }
  }

  private solveNot(f: Formula, b: Map<string, string>, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    let found = false;
    this.solve(f, b, varTypes, view, () => (found = true));
    if (!found) yield_();
  }

  private enumerate(vars: readonly string[], b: Map<string, string>, varTypes: Map<string, string>, yield_: () => void, from = 0): void {
    if (from === vars.length) return yield_();
    const v = vars[from];
    for (const obj of this.objectsOf(varTypes.get(v) ?? 'object')) {
      b.set(v, obj);
      this.enumerate(vars, b, varTypes, yield_, from + 1);
    }
    b.delete(v);
  }

  /** The goal holds (Fast Downward's check_goal on the true facts). */
  won(state: WorldState): boolean {
    let found = false;
    this.solve(this.goal, new Map(), new Map(), this.viewOf(state).view, () => (found = true));
    return found;
  }

  // -- actions ------------------------------------------------------------------------

  private ground(state: WorldState): Ground[] {
    const cached = this.viewOf(state);
    if (cached.grounds) return cached.grounds;
    const { view } = cached;
    const out: Ground[] = [];
    const seen = new Set<string>();
    for (const action of this.domain.actions) {
      const varTypes = new Map(action.params.map((p) => [p.name, p.type]));
      const params = action.params.map((p) => p.name);
      const b = new Map<string, string>();
      const take = () => {
        const args = params.map((p) => b.get(p)!);
        const name = key(action.name, args);
        if (seen.has(name)) return;
        seen.add(name);
        if (!this.hasEffect(action, b)) return;
        out.push({ action, args, command: '' });
      };
      const found = () => {
        const free = params.filter((p) => !b.has(p));
        if (free.length) this.enumerate(free, b, varTypes, take);
        else take();
      };
      this.solve(action.pre, b, varTypes, view, found);
    }
    for (const g of out) g.command = this.commandOf(g, state);
    cached.grounds = out;
    return out;
  }

  /**
   * Fast Downward drops an effect its precondition already makes true (an add of a precondition
   * atom, a delete of a negated one, a delete the action also adds) and an operator left with none.
   */
  private hasEffect(action: AlfAction, b: Map<string, string>): boolean {
    const val = (t: string) => (t.charCodeAt(0) === 63 ? b.get(t)! : t);
    const same = (x: { pred: string; args: string[] }, y: { pred: string; args: string[] }) => x.pred === y.pred && x.args.length === y.args.length && x.args.every((t, i) => val(t) === val(y.args[i]));
    const pre = topLiteralsOf(action.pre);
    for (const e of action.effects) {
      if (e.cond) return true;
      if (e.neg) {
        // A delete is redundant when the precondition says the atom is false, or the action also adds it.
        if (!pre.neg.some((x) => same(x, e)) && !action.effects.some((o) => !o.neg && !o.cond && same(o, e))) return true;
      } else if (!pre.pos.some((x) => same(x, e))) return true;
    }
    return false;
  }

  private mappingOf(g: Ground): Map<string, string> {
    return new Map(g.action.params.map((p, i) => [`${p.name.slice(1)}:${p.type}`, g.args[i]]));
  }

  private readonly commandMemo = new Map<string, string>();
  private readonly staticTemplates = new Map<string, boolean>();

  private commandOf(g: Ground, state: WorldState): string {
    const text = this.grammar.actions.get(g.action.name)?.template ?? g.action.name;
    // A template whose queries read only facts no action changes ("go to [{r.name | receptacleatlocation(…)}]")
    // gives the same command in every state: derived once per ground action.
    let fixed = this.staticTemplates.get(text);
    if (fixed === undefined) {
      fixed = queriesOf(parseSymbols(text)).every((q) => q !== RULE && parseQuery(q).every((atom) => this.staticPreds.has(atom.pred)));
      this.staticTemplates.set(text, fixed);
    }
    if (!fixed) return this.derive(text, this.mappingOf(g), state);
    const k = key(g.action.name, g.args);
    let command = this.commandMemo.get(k);
    if (command === undefined) {
      command = this.derive(text, this.mappingOf(g), state);
      this.commandMemo.set(k, command);
    }
    return command;
  }

  /** The admissible commands: sorted, without duplicates (TextWorld's `sorted(set(…))`). */
  admissible(state: WorldState): string[] {
    return [...new Set(this.ground(state).map((g) => g.command))].sort(pyCompare);
  }

  /** Each admissible command with the state it leads to (the planner's moves). */
  successors(state: WorldState): { command: string; state: WorldState }[] {
    const out: { command: string; state: WorldState }[] = [];
    const seen = new Set<string>();
    for (const g of this.ground(state)) {
      if (seen.has(g.command)) continue;
      seen.add(g.command);
      out.push({ command: g.command, state: this.apply(state, g) });
    }
    return out;
  }

  /** The welcome text at reset. */
  intro(state: WorldState): string {
    return this.derive('#intro#', new Map(), state);
  }

  /**
   * Plays a command: the next state and the feedback, or null when it is not admissible
   * ("Nothing happens." upstream). The first applicable action with that command is taken.
   */
  play(state: WorldState, command: string): { state: WorldState; feedback: string } | null {
    const wanted = command.trim();
    const g = this.ground(state).find((x) => x.command === wanted);
    if (!g) return null;
    const next = this.apply(state, g);
    const feedbackRule = this.grammar.actions.get(g.action.name)?.feedback ?? '';
    return { state: next, feedback: this.derive(feedbackRule, this.mappingOf(g), next) };
  }

  private apply(state: WorldState, g: Ground): WorldState {
    const { view } = this.viewOf(state);
    const b = new Map(g.action.params.map((p, i) => [p.name, g.args[i]]));
    const sub = (args: string[]) => args.map((a) => (a.startsWith('?') ? b.get(a)! : a));
    const adds: string[] = [];
    const dels: string[] = [];
    for (const e of g.action.effects) {
      if (e.cond) {
        let holds = false;
        this.solve(e.cond, b, new Map(g.action.params.map((p) => [p.name, p.type])), view, () => (holds = true));
        if (!holds) continue;
      }
      (e.neg ? dels : adds).push(key(e.pred, sub(e.args)));
    }
    // Fast Downward: an atom both deleted and added stays.
    const removed = new Set(dels.filter((d) => !adds.includes(d)));
    const added = new Set(adds);
    return { facts: edit(state.facts, removed, added), negs: edit(state.negs, added, removed) };
  }

  // -- text -------------------------------------------------------------------------------

  /** Derives a grammar text in a context: `mapping` maps placeholders "name:type" to object ids. */
  derive(src: string, mapping: Map<string, string>, state: WorldState): string {
    const { query } = this.viewOf(state);
    return this.deriveSyms(parseSymbols(src), mapping, query);
  }

  private deriveSyms(syms: readonly Sym[], mapping: Map<string, string>, view: FactView): string {
    let out = '';
    for (const s of syms) out += this.deriveSym(s, mapping, view);
    return out;
  }

  private deriveSym(s: Sym, mapping: Map<string, string>, view: FactView): string {
    switch (s.k) {
      case 'text':
        return s.text;
      case 'rule':
        return this.expandRule(s.name, mapping, view);
      case 'eval':
        return this.evaluate(s.expr, mapping);
      case 'cond': {
        const contexts = s.given ? this.query(s.given, mapping, view) : [mapping];
        return contexts.map((m) => this.deriveSym(s.expr, m, view)).join('');
      }
      case 'list': {
        const inner = s.inner.k === 'cond' ? s.inner : null;
        const contexts = inner?.given ? this.query(inner.given, mapping, view) : [mapping];
        const items = contexts.map((m) => this.deriveSym(inner ? inner.expr : s.inner, m, view));
        if (items.length === 0) return this.expandRule('list_empty', mapping, view);
        if (items.length === 1) return items[0];
        const sep = this.expandRule('list_separator', mapping, view);
        const last = this.expandRule('list_last_separator', mapping, view);
        return items.slice(0, -1).join(sep) + last + items[items.length - 1];
      }
    }
  }

  private expandRule(name: string, mapping: Map<string, string>, view: FactView): string {
    const rules = this.grammar.rules.get(name);
    if (!rules || rules.length === 0) throw new Error(`The game's grammar has no rule "#${name}#".`);
    const rule = rules.find((r) => !r.condition || this.query(r.condition, mapping, view, 1).length > 0);
    if (!rule) throw new Error(`No alternative of the grammar rule "#${name}#" applies.`);
    return this.deriveSyms(rule.rhs, mapping, view);
  }

  /**
   * The answers of a conjunctive query, as TextWorld's State.all_assignments finds them: atom by
   * atom, each over its facts in sorted order; a new placeholder never takes an object another
   * placeholder already holds.
   */
  query(src: string, mapping: Map<string, string>, view: FactView, limit = Infinity): Map<string, string>[] {
    const atoms = parseQuery(src);
    const out: Map<string, string>[] = [];
    const used = new Set(mapping.values());
    const cur = new Map(mapping);
    const walk = (depth: number) => {
      if (out.length >= limit) return;
      if (depth === atoms.length) {
        out.push(new Map(cur));
        return;
      }
      const atom = atoms[depth];
      // Every placeholder bound (a template's own variables): one lookup instead of a scan.
      if (atom.args.every((ph) => cur.has(ph))) {
        const args = atom.args.map((ph) => cur.get(ph)!);
        if (args.every((id, i) => this.isA(this.types.get(id) ?? '', atom.types[i])) && view.has(key(atom.pred, args))) walk(depth + 1);
        return;
      }
      for (const args of view.of(atom.pred)) {
        if (args.length !== atom.args.length) continue;
        const added: string[] = [];
        let ok = true;
        for (let i = 0; i < args.length; i++) {
          const ph = atom.args[i];
          const have = cur.get(ph);
          if (have !== undefined && have !== args[i]) {
            ok = false;
            break;
          }
          if (!this.isA(this.types.get(args[i]) ?? '', atom.types[i])) {
            ok = false;
            break;
          }
          if (have === undefined) {
            if (used.has(args[i])) {
              ok = false;
              break;
            }
            cur.set(ph, args[i]);
            used.add(args[i]);
            added.push(ph);
          } else if (have !== args[i]) {
            ok = false;
            break;
          }
        }
        if (ok) walk(depth + 1);
        for (const ph of added) {
          used.delete(cur.get(ph)!);
          cur.delete(ph);
        }
        if (out.length >= limit) return;
      }
    };
    walk(0);
    return out;
  }

  /** The few Python expressions the grammar uses: `x.attr`, quoted strings, `+`, `or`. */
  private evaluate(expr: string, mapping: Map<string, string>): string {
    const vars = new Map<string, Entity>();
    for (const [ph, id] of mapping) vars.set(ph.slice(0, ph.indexOf(':')), this.entities.get(id) ?? { id, name: id, type: 'object' });
    const operand = (t: string): string => {
      const x = t.trim();
      const q = /^'(.*)'$|^"(.*)"$/.exec(x);
      if (q) return q[1] ?? q[2];
      const [v, attr] = x.split('.');
      const e = vars.get(v);
      if (!e) throw new Error(`The grammar's expression "${expr}" names "${v}", which this action does not bind.`);
      if (!attr) return e.name;
      if (attr === 'name') return e.name;
      if (attr === 'id') return e.id;
      if (attr === 'indefinite') return 'a';
      if (attr === 'definite') return 'the';
      if (attr === 'type') return e.type;
      throw new Error(`The grammar's expression "${expr}" reads an unknown attribute "${attr}".`);
    };
    for (const alt of expr.split(/\s+or\s+/)) {
      const value = alt.split('+').map(operand).join('');
      if (value) return value;
    }
    return '';
  }
}

/** A sorted list without `out` and with `into`, still sorted (a merge: states differ by a few facts). */
function edit(sorted: readonly string[], out: ReadonlySet<string>, into: ReadonlySet<string>): string[] {
  const extra = [...into].filter((x) => !out.has(x)).sort(pyCompare);
  const result: string[] = [];
  let j = 0;
  for (const x of sorted) {
    if (out.has(x)) continue;
    while (j < extra.length && extra[j] < x) result.push(extra[j++]);
    if (j < extra.length && extra[j] === x) j++; // already there
    result.push(x);
  }
  while (j < extra.length) result.push(extra[j++]);
  return result;
}

const RULE = '#rule#';
/** The queries (`{… | query}`) in a right-hand side; a rule reference is RULE (its text may read anything). */
function queriesOf(syms: readonly Sym[]): string[] {
  const out: string[] = [];
  const walk = (x: Sym) => {
    if (x.k === 'cond') {
      if (x.given) out.push(x.given);
      walk(x.expr);
    } else if (x.k === 'list') walk(x.inner);
    else if (x.k === 'rule') out.push(RULE);
  };
  syms.forEach(walk);
  return out;
}

const freeVarMemo = new WeakMap<Formula, string[]>();
/** The free variables of a formula (memoised: formulas are parsed once per wording). */
function freeVarsOf(f: Formula): string[] {
  let v = freeVarMemo.get(f);
  if (!v) freeVarMemo.set(f, (v = [...freeVars(f)]));
  return v;
}

function freeVars(f: Formula, out = new Set<string>()): Set<string> {
  if (f.k === 'atom') for (const a of f.args) if (a.startsWith('?')) out.add(a);
  if (f.k === 'not') freeVars(f.f, out);
  if (f.k === 'and' || f.k === 'or') for (const x of f.fs) freeVars(x, out);
  if (f.k === 'exists') {
    const inner = freeVars(f.f);
    for (const v of f.vars) inner.delete(v.name);
    for (const v of inner) out.add(v);
  }
  return out;
}

const topMemo = new WeakMap<Formula, ReturnType<typeof topLiterals>>();
function topLiteralsOf(f: Formula): ReturnType<typeof topLiterals> {
  let t = topMemo.get(f);
  if (!t) topMemo.set(f, (t = topLiterals(f)));
  return t;
}

/** The atoms a precondition requires outright (its top-level conjunction). */
function topLiterals(f: Formula): { pos: { pred: string; args: string[] }[]; neg: { pred: string; args: string[] }[] } {
  const pos: { pred: string; args: string[] }[] = [];
  const neg: { pred: string; args: string[] }[] = [];
  const walk = (x: Formula) => {
    if (x.k === 'atom') pos.push(x);
    else if (x.k === 'not' && x.f.k === 'atom') neg.push(x.f);
    else if (x.k === 'and') x.fs.forEach(walk);
  };
  walk(f);
  return { pos, neg };
}

/** ALFWorld's Demangler: "cabinet_bar__minus_00_dot_…" → "cabinet 3" (README.md, Upstream). */
export function demangle(ids: readonly string[]): Map<string, string> {
  const sorted = [...ids].sort(pyCompare);
  const count = new Map<string, number>();
  const base = (id: string) => {
    const at = id.indexOf('_bar_');
    if (at < 0) return null;
    return id.slice(0, at) + (id.includes('basin') ? 'basin' : '');
  };
  for (const id of sorted) {
    const b = base(id);
    if (b !== null) count.set(b, (count.get(b) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const id of sorted) {
    const b = base(id);
    if (b === null) {
      const text = id.replace(/_bar_/g, '|').replace(/_minus_/g, '-').replace(/_plus_/g, '+').replace(/_dot_/g, '.').replace(/_comma_/g, ',');
      out.set(id, `${text} `);
    } else {
      const n = count.get(b)!;
      count.set(b, n - 1);
      out.set(id, `${b} ${n}`);
    }
  }
  return out;
}
