/**
 * ALFRED's PDDL, read the way Fast Downward's translator reads it (README.md, Upstream): the ADL
 * the domain uses — conditions with and / or / not / exists, effects with `when`, action costs
 * (`increase (total-cost) n`, ignored: costs never reach the text) — on the S-expression reader the
 * AgentBoard PDDL port owns (envs/pddl/parser.ts), so there is one reader of PDDL text.
 *
 * Like Fast Downward, names are lowercased and a typed list's type is taken verbatim: the domain's
 * `(exists (?l - location, ?r - receptacle) …)` declares ?l of type "location," (with the comma),
 * a type no object has, so that disjunct of examineObject never holds upstream, and not here.
 */
import { asList, atomText, fail, readSExpr, readTypedList, type SExpr, type SList, type TypedName } from '../pddl/parser.ts';

export type Formula =
  | { k: 'atom'; pred: string; args: string[] }
  | { k: 'not'; f: Formula }
  | { k: 'and'; fs: Formula[] }
  | { k: 'or'; fs: Formula[] }
  | { k: 'exists'; vars: TypedName[]; f: Formula };

export interface Effect {
  /** The `when` condition, or null for an unconditional effect. */
  cond: Formula | null;
  pred: string;
  args: string[];
  /** A delete effect (not …). */
  neg: boolean;
}

export interface AlfAction {
  name: string;
  params: TypedName[];
  pre: Formula;
  effects: Effect[];
}

export interface AlfDomain {
  /** Declared types → parent ("object" is the root, as in Fast Downward). */
  types: Map<string, string | null>;
  actions: AlfAction[];
}

export interface AlfProblem {
  objects: TypedName[];
  /** Initial atoms as [pred, ...args]; numeric assignments `(= (f …) n)` are left out. */
  init: string[][];
  goal: Formula;
}

const TRUE: Formula = { k: 'and', fs: [] };

function readFormula(e: SExpr, where: string): Formula {
  const list = asList(e, e.line, `a condition in ${where}`);
  if (list.items.length === 0) return TRUE;
  const head = atomText(list.items[0], list.line, `a condition keyword in ${where}`);
  const rest = list.items.slice(1);
  switch (head) {
    case 'and':
      return { k: 'and', fs: rest.map((x) => readFormula(x, where)) };
    case 'or':
      return { k: 'or', fs: rest.map((x) => readFormula(x, where)) };
    case 'not':
      if (rest.length !== 1) fail(list.line, `(not …) takes one condition in ${where}`);
      return { k: 'not', f: readFormula(rest[0], where) };
    case 'exists': {
      const vars = readTypedList(asList(rest[0], list.line, `the variables of exists in ${where}`).items, `exists in ${where}`);
      return { k: 'exists', vars, f: readFormula(rest[1], where) };
    }
    case 'forall':
    case 'imply':
    case 'when':
      fail(list.line, `"${head}" is not supported in a condition (${where})`);
    // falls through (fail never returns)
    default:
      return { k: 'atom', pred: head, args: rest.map((x) => atomText(x, list.line, `a term of ${head} in ${where}`)) };
  }
}

function readEffects(e: SExpr, where: string, cond: Formula | null, out: Effect[]): void {
  const list = asList(e, e.line, `an effect in ${where}`);
  if (list.items.length === 0) return;
  const head = atomText(list.items[0], list.line, `an effect keyword in ${where}`);
  const rest = list.items.slice(1);
  if (head === 'and') {
    for (const x of rest) readEffects(x, where, cond, out);
  } else if (head === 'increase' || head === 'decrease') {
    // Action costs: Fast Downward turns them into operator costs; the text never shows them.
  } else if (head === 'when') {
    if (cond) fail(list.line, `nested "when" in ${where}`);
    readEffects(rest[1], where, readFormula(rest[0], where), out);
  } else if (head === 'not') {
    const inner = asList(rest[0], list.line, `an atom after not in ${where}`);
    const pred = atomText(inner.items[0], inner.line, `a predicate in ${where}`);
    out.push({ cond, pred, args: inner.items.slice(1).map((x) => atomText(x, inner.line, 'a term')), neg: true });
  } else if (head === 'forall') {
    fail(list.line, `"forall" effects are not supported (${where})`);
  } else {
    out.push({ cond, pred: head, args: rest.map((x) => atomText(x, list.line, 'a term')), neg: false });
  }
}

function sections(top: SList): SList[] {
  return top.items.slice(2).map((x) => asList(x, top.line, 'a section'));
}

export function parseAlfDomain(text: string): AlfDomain {
  const top = readSExpr(text);
  const types = new Map<string, string | null>([['object', null]]);
  const actions: AlfAction[] = [];
  for (const s of sections(top)) {
    const kind = atomText(s.items[0], s.line, 'a section keyword');
    if (kind === ':types') {
      for (const t of readTypedList(s.items.slice(1), ':types')) if (t.name !== 'object') types.set(t.name, t.type);
    } else if (kind === ':action') {
      const name = atomText(s.items[1], s.line, 'an action name');
      let params: TypedName[] = [];
      let pre: Formula = TRUE;
      const effects: Effect[] = [];
      for (let i = 2; i < s.items.length; i += 2) {
        const key = atomText(s.items[i], s.line, `a keyword of action ${name}`);
        const value = s.items[i + 1];
        if (key === ':parameters') params = readTypedList(asList(value, s.line, 'parameters').items, `action ${name}`);
        else if (key === ':precondition') pre = readFormula(value, `action ${name}`);
        else if (key === ':effect') readEffects(value, `action ${name}`, null, effects);
        else fail(s.line, `unknown keyword "${key}" in action ${name}`);
      }
      actions.push({ name, params, pre, effects });
    }
    // :requirements, :predicates and :functions add nothing the game needs.
  }
  return { types, actions };
}

export function parseAlfProblem(text: string): AlfProblem {
  const top = readSExpr(text);
  let objects: TypedName[] = [];
  const init: string[][] = [];
  let goal: Formula = TRUE;
  for (const s of sections(top)) {
    const kind = atomText(s.items[0], s.line, 'a section keyword');
    if (kind === ':objects') objects = readTypedList(s.items.slice(1), ':objects');
    else if (kind === ':init') {
      for (const x of s.items.slice(1)) {
        const atom = asList(x, s.line, 'an initial atom');
        const pred = atomText(atom.items[0], atom.line, 'a predicate');
        if (pred === '=') continue; // numeric fluents (distances, total-cost)
        init.push([pred, ...atom.items.slice(1).map((y) => atomText(y, atom.line, 'a term'))]);
      }
    } else if (kind === ':goal') goal = readFormula(s.items[1], 'the goal');
  }
  return { objects, init, goal };
}
