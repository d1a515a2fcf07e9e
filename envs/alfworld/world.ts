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

export interface GameData {
  domain: string;
  grammar: string;
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
class FactView {
  readonly set: Set<string>;
  private readonly byPred = new Map<string, string[][]>();
  constructor(keys: Iterable<string>) {
    this.set = new Set(keys);
    for (const key of this.set) {
      const parts = key.split(' ');
      let list = this.byPred.get(parts[0]);
      if (!list) this.byPred.set(parts[0], (list = []));
      list.push(parts.slice(1));
    }
  }
  of(pred: string): readonly string[][] {
    return this.byPred.get(pred) ?? [];
  }
}

const key = (pred: string, args: readonly string[]) => (args.length ? `${pred} ${args.join(' ')}` : pred);

/** Python's default string order (code points). */
export const pyCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareArgs(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = pyCompare(a[i], b[i]);
    if (c) return c;
  }
  return a.length - b.length;
}

export class World {
  readonly domain: AlfDomain;
  readonly grammar: GameGrammar;
  /** Object id → declared type. */
  readonly types = new Map<string, string>();
  readonly entities = new Map<string, Entity>();
  readonly goal: Formula;
  readonly initial: WorldState;
  private readonly objectsByType = new Map<string, string[]>();
  private readonly views = new Map<string, { view: FactView; query: FactView }>();

  constructor(data: GameData) {
    this.domain = parseAlfDomain(data.domain);
    this.grammar = parseTwl2(data.grammar);
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
    // TextWorld's entities: every name that appears in a fact of the initial state.
    const ids = new Set<string>();
    for (const [, ...args] of problem.init) for (const a of args) ids.add(a);
    const names = demangle([...ids]);
    for (const id of ids) this.entities.set(id, { id, name: names.get(id)!, type: this.types.get(id) ?? 'object' });
  }

  /** Whether type `t` is `want` or below it (Fast Downward: every declared type is below "object"). */
  private isA(t: string, want: string): boolean {
    for (let x: string | null | undefined = t; x; x = this.domain.types.get(x)) if (x === want) return true;
    return want === 'object' && this.domain.types.has(t);
  }

  private objectsOf(type: string): string[] {
    const out: string[] = [];
    for (const [t, list] of this.objectsByType) if (this.isA(t, type)) out.push(...list);
    return out;
  }

  private viewOf(state: WorldState): { view: FactView; query: FactView } {
    const k = state.facts.join('|') + '#' + state.negs.join('|');
    let v = this.views.get(k);
    if (!v) {
      const view = new FactView(state.facts);
      const query = new FactView([...state.facts, ...state.negs.map((n) => 'not_' + n)]);
      v = { view, query };
      if (this.views.size > 64) this.views.clear();
      this.views.set(k, v);
    }
    return v;
  }

  // -- conditions ------------------------------------------------------------------

  /** Calls `yield_` with every binding (extending `b`) that makes `f` true in `view`. Bindings may repeat. */
  private solve(f: Formula, b: Map<string, string>, varTypes: Map<string, string>, view: FactView, yield_: (b: Map<string, string>) => void): void {
    switch (f.k) {
      case 'atom': {
        const unbound = f.args.filter((a) => a.startsWith('?') && !b.has(a));
        if (unbound.length === 0) {
          if (view.set.has(key(f.pred, f.args.map((a) => (a.startsWith('?') ? b.get(a)! : a))))) yield_(b);
          return;
        }
        for (const args of view.of(f.pred)) {
          if (args.length !== f.args.length) continue;
          const next = new Map(b);
          let ok = true;
          for (let i = 0; i < args.length && ok; i++) {
            const term = f.args[i];
            if (!term.startsWith('?')) ok = term === args[i];
            else {
              const have = next.get(term);
              if (have === undefined) {
                ok = this.isA(this.types.get(args[i]) ?? '', varTypes.get(term) ?? 'object');
                next.set(term, args[i]);
              } else ok = have === args[i];
            }
          }
          if (ok) yield_(next);
        }
        return;
      }
      case 'not': {
        const free = [...freeVars(f.f)].filter((v) => !b.has(v));
        if (free.length > 0) {
          this.enumerate(free, b, varTypes, (full) => this.solveNot(f.f, full, varTypes, view, yield_));
          return;
        }
        this.solveNot(f.f, b, varTypes, view, yield_);
        return;
      }
      case 'and': {
        // Atoms first (they bind), then the rest, as a join.
        const order = [...f.fs.filter((x) => x.k === 'atom'), ...f.fs.filter((x) => x.k !== 'atom')];
        const step = (i: number, cur: Map<string, string>) => {
          if (i === order.length) yield_(cur);
          else this.solve(order[i], cur, varTypes, view, (nb) => step(i + 1, nb));
        };
        step(0, b);
        return;
      }
      case 'or':
        for (const x of f.fs) this.solve(x, b, varTypes, view, yield_);
        return;
      case 'exists': {
        const inner = new Map(varTypes);
        for (const v of f.vars) inner.set(v.name, v.type);
        const names = f.vars.map((v) => v.name);
        this.solve(f.f, b, inner, view, (nb) => {
          // Variables no atom bound range over their type.
          const free = names.filter((n) => !nb.has(n));
          const done = (full: Map<string, string>) => {
            const out = new Map(full);
            for (const n of names) out.delete(n);
            yield_(out);
          };
          if (free.length) this.enumerate(free, nb, inner, done);
          else done(nb);
        });
        return;
      }
    }
  }

  private solveNot(f: Formula, b: Map<string, string>, varTypes: Map<string, string>, view: FactView, yield_: (b: Map<string, string>) => void): void {
    let found = false;
    this.solve(f, b, varTypes, view, () => (found = true));
    if (!found) yield_(b);
  }

  private enumerate(vars: string[], b: Map<string, string>, varTypes: Map<string, string>, yield_: (b: Map<string, string>) => void): void {
    if (vars.length === 0) return yield_(b);
    const [first, ...rest] = vars;
    for (const obj of this.objectsOf(varTypes.get(first) ?? 'object')) {
      const next = new Map(b);
      next.set(first, obj);
      this.enumerate(rest, next, varTypes, yield_);
    }
  }

  /** The goal holds (Fast Downward's check_goal on the true facts). */
  won(state: WorldState): boolean {
    let found = false;
    this.solve(this.goal, new Map(), new Map(), this.viewOf(state).view, () => (found = true));
    return found;
  }

  // -- actions ------------------------------------------------------------------------

  private ground(state: WorldState): Ground[] {
    const { view } = this.viewOf(state);
    const out: Ground[] = [];
    const seen = new Set<string>();
    for (const action of this.domain.actions) {
      const varTypes = new Map(action.params.map((p) => [p.name, p.type]));
      const params = action.params.map((p) => p.name);
      const found = (b: Map<string, string>) => {
        const free = params.filter((p) => !b.has(p));
        const take = (full: Map<string, string>) => {
          const args = params.map((p) => full.get(p)!);
          const name = key(action.name, args);
          if (seen.has(name)) return;
          seen.add(name);
          if (!this.hasEffect(action, full, view)) return;
          out.push({ action, args, command: '' });
        };
        if (free.length) this.enumerate(free, b, varTypes, take);
        else take(b);
      };
      this.solve(action.pre, new Map(), varTypes, view, found);
    }
    for (const g of out) g.command = this.commandOf(g, state);
    return out;
  }

  /**
   * Fast Downward drops an effect its precondition already makes true (an add of a precondition
   * atom, a delete of a negated one, a delete the action also adds) and an operator left with none.
   */
  private hasEffect(action: AlfAction, b: Map<string, string>, view: FactView): boolean {
    const sub = (args: string[]) => args.map((a) => (a.startsWith('?') ? b.get(a)! : a));
    const pre = topLiterals(action.pre);
    const prePos = new Set(pre.pos.map((a) => key(a.pred, sub(a.args))));
    const preNeg = new Set(pre.neg.map((a) => key(a.pred, sub(a.args))));
    const adds = new Set(action.effects.filter((e) => !e.neg && !e.cond).map((e) => key(e.pred, sub(e.args))));
    for (const e of action.effects) {
      if (e.cond) return true;
      const k = key(e.pred, sub(e.args));
      if (e.neg ? !preNeg.has(k) && !adds.has(k) : !prePos.has(k)) return true;
    }
    void view;
    return false;
  }

  private mappingOf(g: Ground): Map<string, string> {
    return new Map(g.action.params.map((p, i) => [`${p.name.slice(1)}:${p.type}`, g.args[i]]));
  }

  private commandOf(g: Ground, state: WorldState): string {
    const text = this.grammar.actions.get(g.action.name)?.template ?? g.action.name;
    return this.derive(text, this.mappingOf(g), state);
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
    const facts = new Set(state.facts);
    const negs = new Set(state.negs);
    for (const d of dels) {
      if (adds.includes(d)) continue; // Fast Downward: an atom both deleted and added stays.
      facts.delete(d);
      negs.add(d);
    }
    for (const a of adds) {
      facts.add(a);
      negs.delete(a);
    }
    return { facts: [...facts].sort(pyCompare), negs: [...negs].sort(pyCompare) };
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
      const facts = [...view.of(atom.pred)].filter((args) => args.length === atom.args.length);
      facts.sort(compareArgs);
      for (const args of facts) {
        const added: string[] = [];
        let ok = true;
        for (let i = 0; i < args.length; i++) {
          const ph = atom.args[i];
          const type = ph.slice(ph.indexOf(':') + 1);
          if (!this.isA(this.types.get(args[i]) ?? '', type)) {
            ok = false;
            break;
          }
          const have = cur.get(ph);
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
