/**
 * Grounding and transitions for one parsed problem.
 *
 * Objects and facts are interned as small integers; a state is a sorted array of
 * fact ids. The applicable ground actions of a state are found by a join over
 * each action's positive preconditions against the true facts (the literal with
 * the fewest matching facts first, re-chosen after every binding), so the cross
 * product of objects is never enumerated. Parameters are type-checked as they are
 * bound (subtypes included). Effects delete first, then add, as pddlgym does (so
 * a fact both deleted and added stays true).
 *
 * Groundings that repeat an object are left out of the applicable set, as
 * pddlgym's LiteralActionSpace leaves them out of its valid actions (README.md, Upstream);
 * `isApplicable` accepts them, as pddlgym's step does.
 */
import { ROOT_TYPE, type Atom, type Domain, type Problem } from './parser.ts';

export interface GroundAction {
  /** Index into `Grounder.actions`. */
  action: number;
  /** Object ids, one per parameter. */
  args: number[];
}

/** A term of a compiled atom: a parameter index (>= 0) or a constant object id encoded as -(id + 1). */
type Term = number;

interface CompiledAtom {
  pred: number;
  terms: Term[];
}

export interface CompiledAction {
  name: string;
  arity: number;
  /** allowed[p][obj] is 1 when object obj may fill parameter p (its type is the parameter's type or a subtype). */
  allowed: Uint8Array[];
  pre: CompiledAtom[];
  preNeg: CompiledAtom[];
  eq: [Term, Term][];
  neq: [Term, Term][];
  add: CompiledAtom[];
  del: CompiledAtom[];
  /** Parameters that no positive precondition binds (enumerated by type at the end). */
  free: number[];
}

/** Facts of a state grouped for the join. */
export interface StateView {
  set: Set<number>;
  byPred: number[][];
}

export class Grounder {
  readonly objects: string[];
  readonly objectIds = new Map<string, number>();
  readonly objectTypes: string[];
  readonly predicates: string[];
  readonly predicateIds = new Map<string, number>();
  readonly actions: CompiledAction[];
  readonly actionIds = new Map<string, number>();
  /** Sorted fact ids of the initial state. */
  readonly initial: number[];
  /** The goal literals in file order (duplicates kept). */
  readonly goal: { fact: number; negated: boolean }[];

  private readonly factIds = new Map<string, number>();
  /** Per fact id: predicate id, object ids, and the key "pred arg1 arg2". */
  readonly factPred: number[] = [];
  readonly factArgs: number[][] = [];
  readonly factKeys: string[] = [];

  constructor(
    readonly domain: Domain,
    readonly problem: Problem,
  ) {
    this.objects = problem.objects.map((o) => o.name);
    this.objectTypes = problem.objects.map((o) => o.type);
    this.objects.forEach((name, i) => this.objectIds.set(name, i));
    this.predicates = [...domain.predicates.keys()];
    this.predicates.forEach((name, i) => this.predicateIds.set(name, i));
    this.actions = domain.actions.map((a) => this.compileAction(a));
    this.actions.forEach((a, i) => this.actionIds.set(a.name, i));
    this.initial = sortedUnique(problem.init.map((atom) => this.groundAtom(atom)));
    this.goal = problem.goal.map((g) => ({ fact: this.groundAtom(g), negated: g.negated }));
  }

  // -- types and objects ----------------------------------------------------

  /** Whether `type` is `ancestor` or one of its subtypes. */
  isSubtype(type: string, ancestor: string): boolean {
    if (ancestor === ROOT_TYPE) return true;
    for (let t: string | null = type; t !== null; t = this.domain.types.get(t) ?? null) if (t === ancestor) return true;
    return false;
  }

  // -- facts ------------------------------------------------------------------

  /** The id of a fact, interning it on first sight. */
  fact(pred: number, args: readonly number[]): number {
    let key = this.predicates[pred];
    for (const a of args) key += ' ' + this.objects[a];
    let id = this.factIds.get(key);
    if (id === undefined) {
      id = this.factKeys.length;
      this.factIds.set(key, id);
      this.factKeys.push(key);
      this.factPred.push(pred);
      this.factArgs.push(args.slice());
    }
    return id;
  }

  /** The id of a fact key "pred arg1 arg2" (interned if new); undefined if it names no predicate/objects. */
  factOfKey(key: string): number | undefined {
    const known = this.factIds.get(key);
    if (known !== undefined) return known;
    const [pred, ...names] = key.split(' ');
    const p = this.predicateIds.get(pred);
    if (p === undefined) return undefined;
    const args: number[] = [];
    for (const n of names) {
      const o = this.objectIds.get(n);
      if (o === undefined) return undefined;
      args.push(o);
    }
    return this.fact(p, args);
  }

  /** The fact id of a ground atom of the problem (objects and constants by name). */
  private groundAtom(atom: Atom): number {
    const args = atom.args.map((a) => {
      const o = this.objectIds.get(a);
      if (o === undefined) throw new Error(`unknown object ${a} in (${atom.pred} ...)`);
      return o;
    });
    return this.fact(this.predicateIds.get(atom.pred)!, args);
  }

  stateOfKeys(keys: readonly string[]): number[] {
    const ids: number[] = [];
    for (const k of keys) {
      const id = this.factOfKey(k);
      if (id !== undefined) ids.push(id);
    }
    return sortedUnique(ids);
  }

  keysOfState(state: readonly number[]): string[] {
    return state.map((id) => this.factKeys[id]).sort();
  }

  view(state: readonly number[]): StateView {
    const byPred: number[][] = this.predicates.map(() => []);
    for (const id of state) byPred[this.factPred[id]].push(id);
    return { set: new Set(state), byPred };
  }

  // -- actions -----------------------------------------------------------------

  private compileAction(a: Domain['actions'][number]): CompiledAction {
    const paramIndex = new Map(a.params.map((p, i) => [p.name, i]));
    const term = (t: string): Term => {
      const i = paramIndex.get(t);
      if (i !== undefined) return i;
      const o = this.objectIds.get(t);
      if (o === undefined) throw new Error(`action ${a.name}: constant ${t} is not an object of the problem`);
      return -(o + 1);
    };
    const atom = (x: Atom): CompiledAtom => ({ pred: this.predicateIds.get(x.pred)!, terms: x.args.map(term) });
    const allowed = a.params.map((p) => Uint8Array.from(this.objectTypes, (t) => (this.isSubtype(t, p.type) ? 1 : 0)));
    const pre = a.pre.map(atom);
    const boundByPre = new Set(pre.flatMap((x) => x.terms.filter((t) => t >= 0)));
    return {
      name: a.name,
      arity: a.params.length,
      allowed,
      pre,
      preNeg: a.preNeg.map(atom),
      eq: a.eq.map(([x, y]) => [term(x), term(y)]),
      neq: a.neq.map(([x, y]) => [term(x), term(y)]),
      add: a.add.map(atom),
      del: a.del.map(atom),
      free: a.params.map((_, i) => i).filter((i) => !boundByPre.has(i)),
    };
  }

  private groundTerms(terms: readonly Term[], args: readonly number[]): number[] {
    return terms.map((t) => (t >= 0 ? args[t] : -t - 1));
  }

  /** The fact id of an atom under a binding, or undefined when that fact was never seen (so it is false). */
  private lookup(atom: CompiledAtom, args: readonly number[]): number | undefined {
    let key = this.predicates[atom.pred];
    for (const t of atom.terms) key += ' ' + this.objects[t >= 0 ? args[t] : -t - 1];
    return this.factIds.get(key);
  }

  private checkRest(a: CompiledAction, args: readonly number[], view: StateView, relaxed = false): boolean {
    if (!relaxed) for (const n of a.preNeg) {
      const id = this.lookup(n, args);
      if (id !== undefined && view.set.has(id)) return false;
    }
    const value = (t: Term) => (t >= 0 ? args[t] : -t - 1);
    for (const [x, y] of a.eq) if (value(x) !== value(y)) return false;
    for (const [x, y] of a.neq) if (value(x) === value(y)) return false;
    return true;
  }

  /**
   * Calls `visit` with each applicable grounding of action `index` (args are reused: copy them to keep);
   * `visit` returns false to stop. With `distinct`, groundings that repeat an object are skipped.
   * With `relaxed`, negative preconditions are ignored (delete relaxation, for the planner's heuristic).
   */
  enumerate(index: number, view: StateView, distinct: boolean, visit: (args: number[]) => boolean, relaxed = false): boolean {
    const a = this.actions[index];
    const args = new Array<number>(a.arity).fill(-1);
    const matched = new Uint8Array(a.pre.length);
    const used = new Map<number, number>(); // object id → how many params hold it (for `distinct`)
    const take = (p: number, obj: number): boolean => {
      if (!a.allowed[p][obj]) return false;
      if (distinct && (used.get(obj) ?? 0) > 0) return false;
      args[p] = obj;
      used.set(obj, (used.get(obj) ?? 0) + 1);
      return true;
    };
    const release = (p: number) => {
      const obj = args[p];
      used.set(obj, used.get(obj)! - 1);
      args[p] = -1;
    };
    // Whether fact f agrees with the atom under the current binding (unbound params are free).
    const agrees = (atom: CompiledAtom, f: number): boolean => {
      const fa = this.factArgs[f];
      for (let k = 0; k < atom.terms.length; k++) {
        const t = atom.terms[k];
        const want = t >= 0 ? args[t] : -t - 1;
        if (want >= 0 && want !== fa[k]) return false;
        if (t >= 0 && want < 0 && !a.allowed[t][fa[k]]) return false;
      }
      return true;
    };
    const freeParams = (i: number): boolean => {
      if (i === a.free.length) return !this.checkRest(a, args, view, relaxed) || visit(args);
      const p = a.free[i];
      for (let obj = 0; obj < this.objects.length; obj++) {
        if (!take(p, obj)) continue;
        const go = freeParams(i + 1);
        release(p);
        if (!go) return false;
      }
      return true;
    };
    const join = (): boolean => {
      // Most constrained remaining precondition: fewest facts agreeing with the binding so far.
      let best = -1;
      let bestCount = Infinity;
      for (let j = 0; j < a.pre.length; j++) {
        if (matched[j]) continue;
        let count = 0;
        for (const f of view.byPred[a.pre[j].pred]) if (agrees(a.pre[j], f)) count++;
        if (count === 0) return true; // dead end: nothing to report, keep searching elsewhere
        if (count < bestCount) {
          bestCount = count;
          best = j;
        }
      }
      if (best === -1) return freeParams(0);
      const atom = a.pre[best];
      matched[best] = 1;
      for (const f of view.byPred[atom.pred]) {
        if (!agrees(atom, f)) continue;
        const fa = this.factArgs[f];
        const boundHere: number[] = [];
        let ok = true;
        for (let k = 0; k < atom.terms.length && ok; k++) {
          const t = atom.terms[k];
          if (t < 0) continue;
          if (args[t] === -1) {
            if (take(t, fa[k])) boundHere.push(t);
            else ok = false;
          } else if (args[t] !== fa[k]) ok = false; // a parameter repeated inside the atom
        }
        const go = ok ? join() : true;
        for (const p of boundHere) release(p);
        if (!go) {
          matched[best] = 0;
          return false;
        }
      }
      matched[best] = 0;
      return true;
    };
    return join();
  }

  /** All applicable ground actions (distinct objects), in action order then join order. */
  applicable(view: StateView): GroundAction[] {
    const out: GroundAction[] = [];
    for (let i = 0; i < this.actions.length; i++) {
      this.enumerate(i, view, true, (args) => {
        out.push({ action: i, args: args.slice() });
        return true;
      });
    }
    return out;
  }

  /** Whether action `index` has at least one applicable grounding (distinct objects). */
  hasApplicable(index: number, view: StateView): boolean {
    let found = false;
    this.enumerate(index, view, true, () => {
      found = true;
      return false;
    });
    return found;
  }

  /** Whether this grounding's types and preconditions hold (repeated objects allowed, as in pddlgym's step). */
  isApplicable(g: GroundAction, view: StateView): boolean {
    const a = this.actions[g.action];
    if (g.args.length !== a.arity) return false;
    for (let p = 0; p < a.arity; p++) if (!a.allowed[p][g.args[p]]) return false;
    for (const atom of a.pre) {
      const id = this.lookup(atom, g.args);
      if (id === undefined || !view.set.has(id)) return false;
    }
    return this.checkRest(a, g.args, view);
  }

  /** The successor state: delete effects first, then add effects (pddlgym's order). */
  apply(state: readonly number[], g: GroundAction): number[] {
    const a = this.actions[g.action];
    const next = new Set(state);
    for (const d of a.del) next.delete(this.fact(d.pred, this.groundTerms(d.terms, g.args)));
    for (const d of a.add) next.add(this.fact(d.pred, this.groundTerms(d.terms, g.args)));
    return sortedUnique([...next]);
  }

  /** The fact ids of a grounding's positive preconditions, add and delete effects (interned). */
  groundFacts(g: GroundAction): { pre: number[]; add: number[]; del: number[] } {
    const a = this.actions[g.action];
    const ids = (atoms: CompiledAtom[]) => atoms.map((x) => this.fact(x.pred, this.groundTerms(x.terms, g.args)));
    return { pre: ids(a.pre), add: ids(a.add), del: ids(a.del) };
  }

  /** The fact ids of a grounding's negative preconditions (interned). */
  groundNegFacts(g: GroundAction): number[] {
    const a = this.actions[g.action];
    return a.preNeg.map((x) => this.fact(x.pred, this.groundTerms(x.terms, g.args)));
  }

  /** How many goal literals hold (each listed literal counts, duplicates included). */
  goalsSatisfied(view: StateView): number {
    let n = 0;
    for (const g of this.goal) if (view.set.has(g.fact) !== g.negated) n++;
    return n;
  }
}

export function sortedUnique(ids: number[]): number[] {
  ids.sort((x, y) => x - y);
  let w = 0;
  for (let r = 0; r < ids.length; r++) if (r === 0 || ids[r] !== ids[r - 1]) ids[w++] = ids[r];
  ids.length = w;
  return ids;
}

export function sameState(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
