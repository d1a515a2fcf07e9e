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
import { parseQuery, parseSymbols, parseTwl2, type GameGrammar, type QueryAtom, type Sym } from './grammar.ts';
import { pyCompare } from '../pddl/text.ts';

export interface GameData {
  /** The domain's text, or the domain already read (games share one: reading it once saves each reset the work). */
  domain: string | AlfDomain;
  /** The grammar's text, or the grammar already read. */
  grammar: string | GameGrammar;
  /** The problem's text, or the problem already compiled (data/problems/ holds each game's, made by data/build-data.ts). */
  problem: string | CompiledProblem;
  /** The initial state's welcome, commands and goal check, worked out at build time with this domain and grammar. */
  start?: StartFacts;
}

/**
 * What a reset shows, stored with each game's problem for the original wording (data/build-data.ts):
 * a page's first reset would otherwise ground every action on code not yet compiled (most of its time).
 * tests/unit/alfworld-logic.test.ts checks it equals working it out; the upstream recordings check it too.
 */
export interface StartFacts {
  intro: string;
  admissible: string[];
  won: boolean;
}

/**
 * What a game's world needs of its PDDL problem, worked out once: the problems are fixed data, so
 * data/build-data.ts stores this form and a reset skips reading, sorting and naming (most of a
 * reset's work, and all of it on code not yet compiled at a page's first reset).
 */
export interface CompiledProblem {
  /** Object id → declared type, in the problem's order. */
  objects: [string, string][];
  /** The initial true facts "pred arg1 arg2", deduplicated and sorted as TextWorld sorts them. */
  facts: string[];
  goal: Formula;
  /** Every id in a fact of the initial state (TextWorld's entities), first-seen order, with its demangled name. */
  names: [string, string][];
  /** The initial state in the original wording (both benchmarks play it). */
  originalStart?: StartFacts;
}

/** Reads a problem's text into its compiled form. */
export function compileProblem(text: string): CompiledProblem {
  const problem = parseAlfProblem(text);
  const facts = [...new Set(problem.init.map(([pred, ...args]) => key(pred, args)))].sort(pyCompare);
  const ids = new Set<string>();
  for (const [, ...args] of problem.init) for (const a of args) ids.add(a);
  const names = demangle([...ids]);
  return {
    objects: problem.objects.map((o) => [o.name, o.type]),
    facts,
    goal: problem.goal,
    names: [...ids].map((id) => [id, names.get(id)!]),
  };
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

/** A node of a game's ground actions by argument (World.ground): the ground action at a full binding, null when it has no effect. */
interface GroundTrie {
  /** Made on first use: a full binding's node (most nodes) has none. */
  next?: Map<string, GroundTrie>;
  ground?: Ground | null;
  /** The number of the last grounding that reached it. */
  mark: number;
}

interface Ground {
  action: AlfAction;
  /** Parameter name (without '?') → object id, in parameter order. */
  args: string[];
  command: string;
}

/** What grounding needs of an action, read once per domain. */
interface ActionInfo {
  params: string[];
  varTypes: Map<string, string>;
  /** The grammar's placeholders "name:type" for the parameters, in order. */
  placeholders: string[];
}
const actionInfo = new WeakMap<AlfAction, ActionInfo>();
function infoOf(action: AlfAction): ActionInfo {
  let info = actionInfo.get(action);
  if (!info) {
    info = {
      params: action.params.map((p) => p.name),
      varTypes: new Map(action.params.map((p) => [p.name, p.type])),
      placeholders: action.params.map((p) => `${p.name.slice(1)}:${p.type}`),
    };
    actionInfo.set(action, info);
  }
  return info;
}

/** A fact key split once: "pred a b" → its predicate and arguments (shared by every view of a game). */
interface ParsedFact {
  pred: string;
  args: string[];
}

/**
 * One predicate's facts in TextWorld's sorted order: the keys; their arguments and the keys as a
 * set are made when first read (a step edits a few predicates, and a state reads only some of them).
 */
interface PredFacts {
  readonly keys: readonly string[];
  args?: readonly string[][];
  set?: ReadonlySet<string>;
}

const NO_ARGS: readonly string[][] = [];

/**
 * Facts of a state indexed by predicate for joins and queries. A state reached by an action gets
 * its view by editing its parent's (`fork`): only the predicates the action touched get new lists,
 * the rest are shared, so a step costs what it changes rather than the whole state.
 */
class FactView {
  private constructor(
    private readonly preds: Map<string, PredFacts>,
    private readonly parse: (key: string) => ParsedFact,
  ) {}

  /**
   * `lists` are each sorted as strings, and no predicate is in two of them (the true facts; the
   * "not_" facts): each predicate's facts are then in TextWorld's sorted order (ids have no spaces,
   * and a space sorts before any id character).
   */
  static build(lists: readonly (readonly string[])[], parse: (key: string) => ParsedFact): FactView {
    const grouped = new Map<string, string[]>();
    for (const keys of lists) {
      for (const key of keys) {
        const { pred } = parse(key);
        let list = grouped.get(pred);
        if (!list) grouped.set(pred, (list = []));
        list.push(key);
      }
    }
    const preds = new Map<string, PredFacts>();
    for (const [pred, keys] of grouped) preds.set(pred, { keys });
    return new FactView(preds, parse);
  }

  /** This view without the facts `out` and with `into` (disjoint sets of keys). */
  fork(out: ReadonlySet<string>, into: ReadonlySet<string>): FactView {
    const touched = new Set<string>();
    for (const k of out) touched.add(this.parse(k).pred);
    for (const k of into) touched.add(this.parse(k).pred);
    const preds = new Map(this.preds);
    for (const pred of touched) {
      const before = this.preds.get(pred)?.keys ?? [];
      const extra: string[] = [];
      for (const k of into) if (this.parse(k).pred === pred) extra.push(k);
      const keys = edit(before, out, new Set(extra));
      if (keys.length === 0) preds.delete(pred);
      else preds.set(pred, { keys });
    }
    return new FactView(preds, this.parse);
  }

  /** Whether the fact `key` (of predicate `pred`) holds. */
  has(pred: string, key: string): boolean {
    const p = this.preds.get(pred);
    if (!p) return false;
    return (p.set ??= new Set(p.keys)).has(key);
  }

  /** How many facts of `pred` hold (without splitting them: the join only ranks by it). */
  count(pred: string): number {
    return this.preds.get(pred)?.keys.length ?? 0;
  }

  of(pred: string): readonly string[][] {
    const p = this.preds.get(pred);
    if (!p) return NO_ARGS;
    return (p.args ??= p.keys.map((k) => this.parse(k).args));
  }
}

/** What is worked out once per state (states are immutable). */
interface StateCache {
  view: FactView;
  query: FactView;
  grounds?: Ground[];
  admissible?: string[];
  won?: boolean;
}

/**
 * A state's cache rides on the state object itself, as a hidden (non-enumerable, so never copied,
 * compared or serialised) property. A WeakMap keyed by states held it before: V8's minor GC keeps a
 * young WeakMap entry's value alive and copies it, so every step's views and ground actions were
 * copied and promoted, and the pauses grew to 5–15 ms as the old space filled (0.2–0.6 ms now).
 */
const CACHE = Symbol('ALFWorld state cache');
const cacheOf = (state: WorldState): StateCache | undefined => (state as { [CACHE]?: StateCache })[CACHE];
const keepCache = (state: WorldState, cache: StateCache): void => {
  Object.defineProperty(state, CACHE, { value: cache, writable: true });
};

/**
 * Variable → object bindings of a join, changed in place at every fact it tries. A Map here
 * reallocated its table on the churn of set and delete (a good part of a step's allocation, so more
 * minor GCs); a join binds a handful of variables, so two short arrays searched in order do.
 */
class Binding {
  private readonly names: string[] = [];
  private readonly values: string[] = [];
  private n = 0;

  private indexOf(name: string): number {
    for (let i = 0; i < this.n; i++) if (this.names[i] === name) return i;
    return -1;
  }

  get(name: string): string | undefined {
    const i = this.indexOf(name);
    return i < 0 ? undefined : this.values[i];
  }

  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  set(name: string, value: string): void {
    const i = this.indexOf(name);
    if (i >= 0) {
      this.values[i] = value;
      return;
    }
    this.names[this.n] = name;
    this.values[this.n] = value;
    this.n++;
  }

  delete(name: string): void {
    const i = this.indexOf(name);
    if (i < 0) return;
    const last = --this.n;
    this.names[i] = this.names[last];
    this.values[i] = this.values[last];
  }

  clear(): void {
    this.n = 0;
  }
}

/** No typed variables (the goal has none free); never written. */
const NO_TYPES = new Map<string, string>();

/** Two atoms of an action are the same under binding `b` (a '?' term is a variable). */
function sameAtom(x: { pred: string; args: string[] }, y: { pred: string; args: string[] }, b: Binding): boolean {
  if (x.pred !== y.pred || x.args.length !== y.args.length) return false;
  for (let i = 0; i < x.args.length; i++) {
    const s = x.args[i];
    const t = y.args[i];
    if ((s.charCodeAt(0) === 63 ? b.get(s) : s) !== (t.charCodeAt(0) === 63 ? b.get(t) : t)) return false;
  }
  return true;
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
  /** Predicates no action's effect names: their facts never change. */
  private readonly staticPreds: Set<string>;
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
    const problem = typeof data.problem === 'string' ? compileProblem(data.problem) : data.problem;
    for (const [name, type] of problem.objects) this.types.set(name, type);
    for (const [name, type] of this.types) {
      let list = this.objectsByType.get(type);
      if (!list) this.objectsByType.set(type, (list = []));
      list.push(name);
    }
    this.goal = problem.goal;
    this.initial = { facts: problem.facts, negs: [] };
    const changing = new Set<string>();
    for (const a of this.domain.actions) for (const e of a.effects) changing.add(e.pred);
    this.staticPreds = new Set<string>();
    for (const f of problem.facts) {
      const pred = this.parse(f).pred;
      if (!changing.has(pred)) this.staticPreds.add(pred);
    }
    for (const [id, name] of problem.names) this.entities.set(id, { id, name, type: this.types.get(id) ?? 'object' });
    this.start = data.start;
  }

  private readonly start: StartFacts | undefined;

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

  private readonly objectsOfType = new Map<string, string[]>();
  private objectsOf(type: string): readonly string[] {
    let out = this.objectsOfType.get(type);
    if (!out) {
      out = [];
      for (const [t, list] of this.objectsByType) if (this.isA(t, type)) out.push(...list);
      this.objectsOfType.set(type, out);
    }
    return out;
  }

  private viewOf(state: WorldState): StateCache {
    let v = cacheOf(state);
    if (!v) {
      const view = FactView.build([state.facts], this.parse);
      const query = state.negs.length ? FactView.build([state.facts, state.negs.map((n) => 'not_' + n)], this.parse) : view;
      v = { view, query };
      keepCache(state, v);
    }
    return v;
  }

  // -- conditions ------------------------------------------------------------------

  /**
   * Calls `yield_` with every binding (extending `b`) that makes `f` true in `view`; bindings may
   * repeat. `b` is extended in place and restored on the way back (no copies: grounding runs at
   * every step), so `yield_` must read it before returning.
   */
  private solve(f: Formula, b: Binding, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    // One method per kind: a closure in any branch would make every call allocate its context.
    switch (f.k) {
      case 'atom':
        if (f.pred === '=') this.solveEquals(f.args, b, yield_);
        else this.solveAtom(f.pred, f.args, b, varTypes, view, yield_);
        return;
      case 'not':
        this.solveNegation(f.f, b, varTypes, view, yield_);
        return;
      case 'and':
        this.solveAnd(f.fs, b, varTypes, view, yield_);
        return;
      case 'or':
        for (const x of f.fs) this.solve(x, b, varTypes, view, yield_);
        return;
      case 'exists':
        this.solveExists(f.vars, f.f, b, varTypes, view, yield_);
        return;
    }
  }

  /** Equality of two terms (the pick-two goals' "(not (= ?o1 ?o2))"); an unbound side takes the other's value. */
  private solveEquals(terms: readonly string[], b: Binding, yield_: () => void): void {
    const x = terms[0].startsWith('?') ? b.get(terms[0]) : terms[0];
    const y = terms[1].startsWith('?') ? b.get(terms[1]) : terms[1];
    if (x !== undefined && y !== undefined) {
      if (x === y) yield_();
    } else if (x !== undefined || y !== undefined) {
      const v = x === undefined ? terms[0] : terms[1];
      b.set(v, (x ?? y)!);
      yield_();
      b.delete(v);
    }
  }

  private solveAtom(pred: string, terms: readonly string[], b: Binding, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    // The positions of variables unbound on entry (a bit each): bound per fact, unbound after it.
    let open = 0;
    for (let i = 0; i < terms.length; i++) if (terms[i].charCodeAt(0) === 63 /* ? */ && !b.has(terms[i])) open |= 1 << i;
    if (open === 0) {
      let k = pred;
      for (const a of terms) k += ' ' + (a.charCodeAt(0) === 63 ? b.get(a)! : a);
      if (view.has(pred, k)) yield_();
      return;
    }
    outer: for (const args of view.of(pred)) {
      if (args.length !== terms.length) continue;
      for (let i = 0; i < args.length; i++) {
        const term = terms[i];
        if (term.charCodeAt(0) !== 63) {
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
        if (!(open & (1 << i))) continue;
        const have = b.get(terms[i]);
        if (have === undefined) b.set(terms[i], args[i]);
        else if (have !== args[i]) ok = false; // the same variable twice in one atom
      }
      if (ok) yield_();
      for (let i = 0; i < args.length; i++) if (open & (1 << i)) b.delete(terms[i]);
    }
  }

  private solveNegation(f: Formula, b: Binding, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    const vars = freeVarsOf(f);
    let unbound = 0;
    for (const v of vars) if (!b.has(v)) unbound++;
    if (unbound > 0) {
      const free = vars.filter((v) => !b.has(v));
      this.enumerate(free, b, varTypes, () => this.solveNot(f, b, varTypes, view, yield_));
      return;
    }
    this.solveNot(f, b, varTypes, view, yield_);
  }

  /**
   * A join: next, the atom with the most bound terms (then the fewest facts); a condition other
   * than an atom once its variables are bound, or last. `done` marks the conjuncts already joined
   * (a bit each; conjunctions here are short).
   */
  private solveAnd(fs: readonly Formula[], b: Binding, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    if (fs.length > 30) throw new Error('A conjunction of more than 30 conditions is not supported.');
    const all = (1 << fs.length) - 1;
    // One continuation per set of joined conjuncts, not one per binding: grounding runs every step,
    // and a closure per binding was an eighth of a step's allocation (more minor GCs mid-step).
    const then = new Map<number, () => void>();
    // Made outside `step`, so that `step` captures nothing of its own call (a context per call).
    const continuation = (next: number) => () => step(next);
    const step = (done: number): void => {
      if (done === all) return yield_();
      let best = -1;
      let bestScore = -Infinity;
      for (let i = 0; i < fs.length; i++) {
        if (done & (1 << i)) continue;
        const x = fs[i];
        let score: number;
        if (x.k === 'atom') {
          let bound = 0;
          for (const t of x.args) if (t.charCodeAt(0) !== 63 || b.has(t)) bound++;
          score = bound === x.args.length ? 1e6 : bound * 1e3 - view.count(x.pred);
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
      const next = done | (1 << best);
      let k = then.get(next);
      if (!k) then.set(next, (k = continuation(next)));
      this.solve(fs[best], b, varTypes, view, k);
    };
    step(0);
  }

  private solveExists(vars: readonly { name: string; type: string }[], f: Formula, b: Binding, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    const inner = copyMap(varTypes);
    for (const v of vars) inner.set(v.name, v.type);
    const names = vars.map((v) => v.name);
    this.solve(f, b, inner, view, () => {
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
  }

  private solveNot(f: Formula, b: Binding, varTypes: Map<string, string>, view: FactView, yield_: () => void): void {
    let found = false;
    this.solve(f, b, varTypes, view, () => (found = true));
    if (!found) yield_();
  }

  private enumerate(vars: readonly string[], b: Binding, varTypes: Map<string, string>, yield_: () => void, from = 0): void {
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
    if (state === this.initial && this.start) return this.start.won;
    const cached = this.viewOf(state);
    if (cached.won === undefined) {
      let found = false;
      this.solve(this.goal, new Binding(), NO_TYPES, cached.view, () => (found = true));
      cached.won = found;
    }
    return cached.won;
  }

  // -- actions ------------------------------------------------------------------------

  /**
   * Ground actions, one object per action and arguments for the whole game (a trie by argument):
   * a state's grounding finds each binding's Ground without building its key string, and marks it
   * with the grounding's number to drop repeats. `effect` (Fast Downward keeps only operators with
   * an effect, a question of the binding alone) and the command of a template that reads only
   * static facts are worked out once per ground action, not once per state.
   */
  private readonly groundTries = new Map<AlfAction, GroundTrie>();
  private grounding = 0;

  private ground(state: WorldState): Ground[] {
    const cached = this.viewOf(state);
    if (cached.grounds) return cached.grounds;
    const { view } = cached;
    const out: Ground[] = [];
    const mark = ++this.grounding;
    const b = new Binding();
    for (const action of this.domain.actions) {
      const { params, varTypes } = infoOf(action);
      let root = this.groundTries.get(action);
      if (!root) this.groundTries.set(action, (root = { mark: 0 }));
      const trie = root;
      const take = () => {
        let node = trie;
        for (const p of params) {
          const arg = b.get(p)!;
          const next = (node.next ??= new Map());
          let child = next.get(arg);
          if (!child) next.set(arg, (child = { mark: 0 }));
          node = child;
        }
        if (node.mark === mark) return;
        node.mark = mark;
        if (node.ground === undefined) {
          const args: string[] = [];
          for (const p of params) args.push(b.get(p)!);
          node.ground = this.hasEffect(action, b) ? { action, args, command: '' } : null;
        }
        if (node.ground) out.push(node.ground);
      };
      const found = () => {
        let unbound = 0;
        for (const p of params) if (!b.has(p)) unbound++;
        if (unbound) this.enumerate(params.filter((p) => !b.has(p)), b, varTypes, take);
        else take();
      };
      this.solve(action.pre, b, varTypes, view, found);
      b.clear();
    }
    // Commands: a fixed template's once per ground action; any other's in this state, on a copy.
    for (let i = 0; i < out.length; i++) {
      const g = out[i];
      const fixed = this.isFixed(g.action);
      if (fixed && g.command !== '') continue;
      const command = this.commandOf(g, state);
      if (fixed) g.command = command;
      else out[i] = { ...g, command };
    }
    cached.grounds = out;
    return out;
  }

  /**
   * Fast Downward drops an effect its precondition already makes true (an add of a precondition
   * atom, a delete of a negated one, a delete the action also adds) and an operator left with none.
   */
  private hasEffect(action: AlfAction, b: Binding): boolean {
    const pre = topLiteralsOf(action.pre);
    for (const e of action.effects) {
      if (e.cond) return true;
      let redundant = false;
      if (e.neg) {
        // A delete is redundant when the precondition says the atom is false, or the action also adds it.
        for (const x of pre.neg) if (sameAtom(x, e, b)) redundant = true;
        if (!redundant) for (const o of action.effects) if (!o.neg && !o.cond && sameAtom(o, e, b)) redundant = true;
      } else {
        for (const x of pre.pos) if (sameAtom(x, e, b)) redundant = true;
      }
      if (!redundant) return true;
    }
    return false;
  }

  private mappingOf(g: Ground): Map<string, string> {
    const { placeholders } = infoOf(g.action);
    const m = new Map<string, string>();
    for (let i = 0; i < placeholders.length; i++) m.set(placeholders[i], g.args[i]);
    return m;
  }

  private readonly staticTemplates = new Map<string, boolean>();

  private templateOf(action: AlfAction): string {
    return this.grammar.actions.get(action.name)?.template ?? action.name;
  }

  /**
   * A template whose queries read only facts no action changes ("go to [{r.name | receptacleatlocation(…)}]")
   * gives the same command in every state.
   */
  private isFixed(action: AlfAction): boolean {
    const text = this.templateOf(action);
    let fixed = this.staticTemplates.get(text);
    if (fixed === undefined) {
      fixed = queriesOf(parseSymbols(text)).every((q) => q !== RULE && parseQuery(q).every((atom) => this.staticPreds.has(atom.pred)));
      this.staticTemplates.set(text, fixed);
    }
    return fixed;
  }

  private commandOf(g: Ground, state: WorldState): string {
    return this.derive(this.templateOf(g.action), this.mappingOf(g), state);
  }

  /** Works out a state's ground actions ahead of its first step (warmup.ts: in idle time after a reset). */
  prepare(state: WorldState): void {
    this.ground(state);
  }

  /** The admissible commands: sorted, without duplicates (TextWorld's `sorted(set(…))`). */
  admissible(state: WorldState): string[] {
    if (state === this.initial && this.start) return [...this.start.admissible];
    const cached = this.viewOf(state);
    cached.admissible ??= [...new Set(this.ground(state).map((g) => g.command))].sort(pyCompare);
    return [...cached.admissible];
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
    if (state === this.initial && this.start) return this.start.intro;
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
    const b = new Binding();
    g.action.params.forEach((p, i) => b.set(p.name, g.args[i]));
    const sub = (args: string[]) => args.map((a) => (a.startsWith('?') ? b.get(a)! : a));
    const adds: string[] = [];
    const dels: string[] = [];
    for (const e of g.action.effects) {
      if (e.cond) {
        let holds = false;
        this.solve(e.cond, b, infoOf(g.action).varTypes, view, () => (holds = true));
        if (!holds) continue;
      }
      (e.neg ? dels : adds).push(key(e.pred, sub(e.args)));
    }
    // Fast Downward: an atom both deleted and added stays.
    const removed = new Set(dels.filter((d) => !adds.includes(d)));
    const added = new Set(adds);
    const next: WorldState = { facts: edit(state.facts, removed, added), negs: edit(state.negs, added, removed) };
    // The next state's views, edited from this one's: the true facts lose `removed` and gain
    // `added`; TextWorld's not_ facts gain the removed atoms and lose the added ones.
    const parent = this.viewOf(state);
    const nextView = parent.view.fork(removed, added);
    let nextQuery = nextView;
    if (next.negs.length) {
      const out = new Set(removed);
      const into = new Set(added);
      for (const a of added) out.add('not_' + a);
      for (const r of removed) into.add('not_' + r);
      nextQuery = parent.query.fork(out, into);
    }
    keepCache(next, { view: nextView, query: nextQuery });
    return next;
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
        if (!s.given) return this.deriveSym(s.expr, mapping, view);
        const contexts = this.query(s.given, mapping, view);
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
    const rule = rules.find((r) => !r.condition || this.holds(r.condition, mapping, view));
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
    const used = new Set<string>();
    mapping.forEach((id) => used.add(id));
    const cur = copyMap(mapping);
    // The placeholders each depth bound, reused across the facts it tries.
    const addedAt = atoms.map((): string[] => []);
    const walk = (depth: number) => {
      if (out.length >= limit) return;
      if (depth === atoms.length) {
        out.push(copyMap(cur));
        return;
      }
      const atom = atoms[depth];
      // Every placeholder bound (a template's own variables): one lookup instead of a scan.
      if (allBound(atom, cur)) {
        if (this.boundHolds(atom, cur, view)) walk(depth + 1);
        return;
      }
      const added = addedAt[depth];
      for (const args of view.of(atom.pred)) {
        if (args.length !== atom.args.length) continue;
        added.length = 0;
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

  /**
   * Whether a query has an answer (a grammar rule's condition). Most conditions ask only about the
   * objects already bound ("openable(r) & opened(r)"): those are looked up, without the search's
   * copies; any other is searched for its first answer.
   */
  private holds(src: string, mapping: Map<string, string>, view: FactView): boolean {
    const atoms = parseQuery(src);
    if (!atoms.every((atom) => allBound(atom, mapping))) return this.query(src, mapping, view, 1).length > 0;
    for (const atom of atoms) if (!this.boundHolds(atom, mapping, view)) return false;
    return true;
  }

  /** A query atom whose placeholders are all bound holds: its objects are of its types and its fact is true. */
  private boundHolds(atom: QueryAtom, mapping: ReadonlyMap<string, string>, view: FactView): boolean {
    let k = atom.pred;
    for (let i = 0; i < atom.args.length; i++) {
      const id = mapping.get(atom.args[i])!;
      if (!this.isA(this.types.get(id) ?? '', atom.types[i])) return false;
      k += ' ' + id;
    }
    return view.has(atom.pred, k);
  }

  /** The few Python expressions the grammar uses: `x.attr`, quoted strings, `+`, `or`. */
  private evaluate(expr: string, mapping: Map<string, string>): string {
    for (const alt of compileExpr(expr)) {
      let value = '';
      for (const op of alt) {
        if (op.text !== undefined) {
          value += op.text;
          continue;
        }
        // The placeholder "v:type" whose name is v.
        let id: string | undefined;
        mapping.forEach((obj, ph) => {
          // The last such placeholder wins, as a dict built from the mapping would have it.
          if (ph.length > op.v.length && ph.charCodeAt(op.v.length) === 58 /* : */ && ph.startsWith(op.v)) id = obj;
        });
        if (id === undefined) throw new Error(`The grammar's expression "${expr}" names "${op.v}", which this action does not bind.`);
        const e = this.entities.get(id) ?? { id, name: id, type: 'object' };
        if (op.attr === 'id') value += e.id;
        else if (op.attr === 'indefinite') value += 'a';
        else if (op.attr === 'definite') value += 'the';
        else if (op.attr === 'type') value += e.type;
        else value += e.name;
      }
      if (value) return value;
    }
    return '';
  }
}

/** An operand of a grammar expression: a quoted text, or a variable and its attribute. */
type Operand = { text: string; v?: undefined; attr?: undefined } | { text?: undefined; v: string; attr: string };
const compiledExprs = new Map<string, Operand[][]>();
/** An expression as alternatives ("or") of operands joined by "+", read once. */
function compileExpr(expr: string): Operand[][] {
  let alts = compiledExprs.get(expr);
  if (!alts) {
    alts = expr.split(/\s+or\s+/).map((alt) =>
      alt.split('+').map((t): Operand => {
        const x = t.trim();
        const q = /^'(.*)'$|^"(.*)"$/.exec(x);
        if (q) return { text: q[1] ?? q[2] };
        const [v, attr = 'name'] = x.split('.');
        if (!['name', 'id', 'indefinite', 'definite', 'type'].includes(attr)) throw new Error(`The grammar's expression "${expr}" reads an unknown attribute "${attr}".`);
        return { v, attr };
      }),
    );
    compiledExprs.set(expr, alts);
  }
  return alts;
}

/** Every placeholder of a query atom is bound in `mapping`. */
function allBound(atom: QueryAtom, mapping: ReadonlyMap<string, string>): boolean {
  for (const ph of atom.args) if (!mapping.has(ph)) return false;
  return true;
}

/** A copy of a map without its entry iterator (copies are made on every query of every step). */
function copyMap<K, V>(m: ReadonlyMap<K, V>): Map<K, V> {
  const out = new Map<K, V>();
  m.forEach((v, k) => out.set(k, v));
  return out;
}

/** A sorted list without `out` and with `into`, still sorted (a merge: states differ by a few facts). */
function edit(sorted: readonly string[], out: ReadonlySet<string>, into: ReadonlySet<string>): string[] {
  const extra = [...into].filter((x) => !out.has(x)).sort(pyCompare);
  // Sized once (states hold hundreds of facts: growing by push copied the list several times per step).
  const result = new Array<string>(sorted.length + extra.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    const x = sorted[i];
    if (out.has(x)) continue;
    while (j < extra.length && extra[j] < x) result[n++] = extra[j++];
    if (j < extra.length && extra[j] === x) j++; // already there
    result[n++] = x;
  }
  while (j < extra.length) result[n++] = extra[j++];
  result.length = n;
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
