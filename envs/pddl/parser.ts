/**
 * A PDDL reader for the STRIPS-with-types subset AgentBoard's four domains use
 * (README.md, Upstream): types with a hierarchy, constants, predicates, actions whose
 * preconditions are conjunctions of positive or negative atoms and (in)equalities,
 * add/delete effects; problems with objects, an initial state and a goal conjunction.
 *
 * Like pddlgym, the text is read case-insensitively (lowercased) and a '?' always
 * starts a new token, so barman's "?l - level?l1 - level" reads as two parameters.
 * Anything outside the subset (or, forall, when, numeric fluents, ...) is an error
 * that names the construct and its line.
 */

export class PddlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PddlError';
  }
}

/** The root type; untyped names and untyped domains use it. */
export const ROOT_TYPE = 'object';

export interface TypedName {
  name: string;
  type: string;
}

/** A predicate applied to terms: variables ('?x') in a domain, objects or constants elsewhere. */
export interface Atom {
  pred: string;
  args: string[];
}

export interface ActionSchema {
  name: string;
  params: TypedName[];
  /** Positive precondition atoms. */
  pre: Atom[];
  /** Negated precondition atoms. */
  preNeg: Atom[];
  /** (= a b) preconditions, and (not (= a b)). */
  eq: [string, string][];
  neq: [string, string][];
  add: Atom[];
  del: Atom[];
}

export interface Domain {
  name: string;
  requirements: string[];
  /** Every type name → its parent (the root maps to null). */
  types: Map<string, string | null>;
  constants: TypedName[];
  /** Predicate name → its typed parameters. */
  predicates: Map<string, TypedName[]>;
  actions: ActionSchema[];
}

export interface GoalLiteral extends Atom {
  negated: boolean;
}

export interface Problem {
  name: string;
  domain: string;
  /** Problem objects followed by the domain's constants not already listed (pddlgym adds the constants too). */
  objects: TypedName[];
  init: Atom[];
  /** The goal conjunction, in file order (duplicates kept: pddlgym counts them for progress). */
  goal: GoalLiteral[];
}

// ---------------------------------------------------------------------------
// S-expressions

export interface SAtom {
  kind: 'atom';
  text: string;
  line: number;
}
export interface SList {
  kind: 'list';
  items: SExpr[];
  line: number;
}
export type SExpr = SAtom | SList;

export function fail(line: number, message: string): never {
  throw new PddlError(`line ${line}: ${message}`);
}

/** Reads one top-level list from PDDL text (lowercased, comments dropped). Shared with ALFWorld's ADL reader (envs/alfworld/pddl.ts). */
export function readSExpr(text: string): SList {
  const src = text.toLowerCase();
  const stack: SList[] = [];
  let top: SList | null = null;
  let line = 1;
  let i = 0;
  // Character codes, not one-character strings and a regular expression per character: a
  // problem of ALFWorld's is read at every reset.
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === NL) {
      line++;
      i++;
    } else if (isSpace(c)) {
      i++;
    } else if (c === SEMICOLON) {
      while (i < src.length && src.charCodeAt(i) !== NL) i++;
    } else if (c === OPEN) {
      if (top && stack.length === 0) fail(line, 'text after the end of the definition');
      const list: SList = { kind: 'list', items: [], line };
      if (stack.length > 0) stack[stack.length - 1].items.push(list);
      stack.push(list);
      i++;
    } else if (c === CLOSE) {
      const list = stack.pop();
      if (!list) fail(line, "unbalanced ')'");
      if (stack.length === 0) top = list;
      i++;
    } else {
      let j = i + 1;
      // A '?' starts a new token even without a space before it (barman: "level?l1").
      while (j < src.length && !endsAtom(src.charCodeAt(j))) j++;
      const atom: SAtom = { kind: 'atom', text: src.slice(i, j), line };
      if (stack.length === 0) fail(line, `unexpected "${atom.text}" outside parentheses`);
      stack[stack.length - 1].items.push(atom);
      i = j;
    }
  }
  if (stack.length > 0) fail(stack[stack.length - 1].line, "unbalanced '(': the definition is not closed");
  if (!top) throw new PddlError('empty input: expected (define ...)');
  return top;
}

const NL = 10;
const SEMICOLON = 59;
const OPEN = 40;
const CLOSE = 41;
const QUESTION = 63;
/** JavaScript's \s (what the reader has always split on): ASCII white space, NBSP, Unicode spaces, BOM. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
function endsAtom(c: number): boolean {
  return c === OPEN || c === CLOSE || c === SEMICOLON || c === QUESTION || isSpace(c);
}

export function atomText(e: SExpr | undefined, line: number, what: string): string {
  if (!e || e.kind !== 'atom') fail(e?.line ?? line, `expected ${what}`);
  return e.text;
}

export function asList(e: SExpr | undefined, line: number, what: string): SList {
  if (!e || e.kind !== 'list') fail(e?.line ?? line, `expected ${what}`);
  return e;
}

/** "a b - t c - u d" → typed names; untyped names get the root type. */
export function readTypedList(items: SExpr[], what: string): TypedName[] {
  const out: TypedName[] = [];
  let pending: string[] = [];
  for (let k = 0; k < items.length; k++) {
    const item = items[k];
    if (item.kind === 'list') fail(item.line, `unexpected list in ${what}`);
    if (item.text === '-') {
      const t = items[k + 1];
      if (t && t.kind === 'list') fail(t.line, `"either" types are not supported (in ${what})`);
      const type = atomText(t, item.line, `a type name after '-' in ${what}`);
      if (pending.length === 0) fail(item.line, `'-' without names before it in ${what}`);
      for (const name of pending) out.push({ name, type });
      pending = [];
      k++;
    } else {
      pending.push(item.text);
    }
  }
  for (const name of pending) out.push({ name, type: ROOT_TYPE });
  return out;
}

// ---------------------------------------------------------------------------
// Domain

const SUPPORTED_REQUIREMENTS = new Set([':strips', ':typing', ':negative-preconditions', ':equality']);

export function parseDomain(text: string): Domain {
  const top = readSExpr(text);
  if (atomText(top.items[0], top.line, '"define"') !== 'define') fail(top.line, 'expected (define (domain NAME) ...)');
  const head = asList(top.items[1], top.line, '(domain NAME)');
  if (atomText(head.items[0], head.line, '"domain"') !== 'domain') fail(head.line, 'expected (domain NAME); is this a problem file?');
  const domain: Domain = {
    name: atomText(head.items[1], head.line, 'the domain name'),
    requirements: [],
    types: new Map([[ROOT_TYPE, null]]),
    constants: [],
    predicates: new Map(),
    actions: [],
  };
  const sections = top.items.slice(2).map((e) => asList(e, top.line, 'a domain section'));
  const kinds = sections.map((s) => atomText(s.items[0], s.line, 'a section keyword'));
  // Types, constants and predicates first, so actions can be checked against them whatever the file order.
  const order = [':requirements', ':types', ':constants', ':predicates', ':action'];
  kinds.forEach((k, i) => {
    if (!order.includes(k)) fail(sections[i].line, `unsupported domain section "${k}"`);
  });
  for (const wanted of order) {
    sections.forEach((s, i) => {
      if (kinds[i] !== wanted) return;
      const body = s.items.slice(1);
      if (wanted === ':requirements') readRequirements(domain, body, s.line);
      else if (wanted === ':types') readTypes(domain, body, s.line);
      else if (wanted === ':constants') readConstants(domain, body, s.line);
      else if (wanted === ':predicates') readPredicates(domain, body, s.line);
      else domain.actions.push(readAction(domain, body, s.line));
    });
  }
  return domain;
}

function readRequirements(domain: Domain, body: SExpr[], line: number): void {
  for (const e of body) {
    const r = atomText(e, line, 'a requirement');
    if (!SUPPORTED_REQUIREMENTS.has(r)) fail(e.line, `unsupported requirement "${r}"`);
    domain.requirements.push(r);
  }
}

function readTypes(domain: Domain, body: SExpr[], line: number): void {
  const declared = readTypedList(body, ':types');
  for (const { name, type } of declared) {
    if (name === ROOT_TYPE) continue;
    if (!domain.types.has(type)) domain.types.set(type, ROOT_TYPE);
    domain.types.set(name, type);
  }
  // Reject cycles (a - b, b - a).
  for (const name of domain.types.keys()) {
    const seen = new Set<string>();
    for (let t: string | null = name; t !== null; t = domain.types.get(t) ?? null) {
      if (seen.has(t)) fail(line, `the type hierarchy has a cycle through "${t}"`);
      seen.add(t);
    }
  }
}

function checkType(domain: Domain, type: string, line: number, where: string): void {
  if (!domain.types.has(type)) fail(line, `unknown type "${type}" in ${where}`);
}

function readConstants(domain: Domain, body: SExpr[], line: number): void {
  for (const c of readTypedList(body, ':constants')) {
    checkType(domain, c.type, line, `constant ${c.name}`);
    domain.constants.push(c);
  }
}

function readPredicates(domain: Domain, body: SExpr[], line: number): void {
  for (const e of body) {
    const p = asList(e, line, 'a predicate declaration (name ?arg ...)');
    const name = atomText(p.items[0], p.line, 'a predicate name');
    if (domain.predicates.has(name)) fail(p.line, `predicate "${name}" is declared twice`);
    const params = readTypedList(p.items.slice(1), `predicate ${name}`);
    for (const param of params) {
      if (!param.name.startsWith('?')) fail(p.line, `predicate ${name}: parameter "${param.name}" must start with '?'`);
      checkType(domain, param.type, p.line, `predicate ${name}`);
    }
    domain.predicates.set(name, params);
  }
}

function readAction(domain: Domain, body: SExpr[], line: number): ActionSchema {
  const name = atomText(body[0], line, 'an action name');
  const action: ActionSchema = { name, params: [], pre: [], preNeg: [], eq: [], neq: [], add: [], del: [] };
  if (domain.actions.some((a) => a.name === name)) fail(line, `action "${name}" is defined twice`);
  if (domain.predicates.has(name)) fail(line, `action "${name}" has the name of a predicate`);
  let precondition: SExpr | undefined;
  let effect: SExpr | undefined;
  for (let k = 1; k < body.length; k += 2) {
    const key = atomText(body[k], line, `a keyword in action ${name}`);
    const value = body[k + 1];
    if (value === undefined) fail(body[k].line, `action ${name}: ${key} has no value`);
    if (key === ':parameters') {
      action.params = readTypedList(asList(value, line, 'a parameter list').items, `action ${name} parameters`);
      for (const p of action.params) {
        if (!p.name.startsWith('?')) fail(value.line, `action ${name}: parameter "${p.name}" must start with '?'`);
        checkType(domain, p.type, value.line, `action ${name}`);
      }
      const names = action.params.map((p) => p.name);
      if (new Set(names).size !== names.length) fail(value.line, `action ${name}: a parameter is listed twice`);
    } else if (key === ':precondition') precondition = value;
    else if (key === ':effect') effect = value;
    else fail(body[k].line, `action ${name}: unsupported keyword "${key}"`);
  }
  const terms = new Set([...action.params.map((p) => p.name), ...domain.constants.map((c) => c.name)]);
  if (precondition) readCondition(domain, action, precondition, terms);
  if (!effect) fail(line, `action ${name} has no :effect`);
  readEffect(domain, action, effect, terms);
  return action;
}

function readAtom(domain: Domain, list: SList, terms: Set<string>, where: string): Atom {
  const pred = atomText(list.items[0], list.line, 'a predicate name');
  const declared = domain.predicates.get(pred);
  if (!declared) fail(list.line, `unknown predicate "${pred}" in ${where}`);
  const args = list.items.slice(1).map((e) => atomText(e, list.line, `a term of (${pred} ...)`));
  if (args.length !== declared.length) fail(list.line, `(${pred} ...) takes ${declared.length} argument(s), got ${args.length} in ${where}`);
  for (const a of args) if (!terms.has(a)) fail(list.line, `"${a}" is neither a parameter nor a constant in ${where}`);
  return { pred, args };
}

const UNSUPPORTED = new Set(['or', 'imply', 'forall', 'exists', 'when', 'increase', 'decrease', 'assign', 'probabilistic']);

function readCondition(domain: Domain, action: ActionSchema, e: SExpr, terms: Set<string>): void {
  const where = `the precondition of ${action.name}`;
  const list = asList(e, e.line, `a condition in ${where}`);
  if (list.items.length === 0) return; // "()" is the empty conjunction
  const head = atomText(list.items[0], list.line, `a condition in ${where}`);
  if (head === 'and') {
    for (const c of list.items.slice(1)) readCondition(domain, action, c, terms);
  } else if (head === 'not') {
    if (list.items.length !== 2) fail(list.line, `(not ...) takes one argument in ${where}`);
    const inner = asList(list.items[1], list.line, `an atom inside (not ...) in ${where}`);
    const innerHead = atomText(inner.items[0], inner.line, 'a predicate name');
    if (innerHead === '=') action.neq.push(readEquality(inner, terms, where));
    else if (UNSUPPORTED.has(innerHead) || innerHead === 'and' || innerHead === 'not') fail(inner.line, `only an atom or (= a b) may be negated in ${where}`);
    else action.preNeg.push(readAtom(domain, inner, terms, where));
  } else if (head === '=') {
    action.eq.push(readEquality(list, terms, where));
  } else if (UNSUPPORTED.has(head)) {
    fail(list.line, `"${head}" is not supported (STRIPS conjunctions only) in ${where}`);
  } else {
    action.pre.push(readAtom(domain, list, terms, where));
  }
}

function readEquality(list: SList, terms: Set<string>, where: string): [string, string] {
  if (list.items.length !== 3) fail(list.line, `(= a b) takes two terms in ${where}`);
  const a = atomText(list.items[1], list.line, 'a term');
  const b = atomText(list.items[2], list.line, 'a term');
  for (const t of [a, b]) if (!terms.has(t)) fail(list.line, `"${t}" is neither a parameter nor a constant in ${where}`);
  return [a, b];
}

function readEffect(domain: Domain, action: ActionSchema, e: SExpr, terms: Set<string>): void {
  const where = `the effect of ${action.name}`;
  const list = asList(e, e.line, `an effect in ${where}`);
  if (list.items.length === 0) return;
  const head = atomText(list.items[0], list.line, `an effect in ${where}`);
  if (head === 'and') {
    for (const c of list.items.slice(1)) readEffect(domain, action, c, terms);
  } else if (head === 'not') {
    if (list.items.length !== 2) fail(list.line, `(not ...) takes one argument in ${where}`);
    action.del.push(readAtom(domain, asList(list.items[1], list.line, `an atom inside (not ...) in ${where}`), terms, where));
  } else if (UNSUPPORTED.has(head) || head === '=') {
    fail(list.line, `"${head}" is not supported (add/delete effects only) in ${where}`);
  } else {
    action.add.push(readAtom(domain, list, terms, where));
  }
}

// ---------------------------------------------------------------------------
// Problem

export function parseProblem(text: string, domain: Domain): Problem {
  const top = readSExpr(text);
  if (atomText(top.items[0], top.line, '"define"') !== 'define') fail(top.line, 'expected (define (problem NAME) ...)');
  const head = asList(top.items[1], top.line, '(problem NAME)');
  if (atomText(head.items[0], head.line, '"problem"') !== 'problem') fail(head.line, 'expected (problem NAME); is this a domain file?');
  const problem: Problem = { name: atomText(head.items[1], head.line, 'the problem name'), domain: '', objects: [], init: [], goal: [] };
  let sawGoal = false;
  let sawInit = false;
  const sections = top.items.slice(2).map((e) => asList(e, top.line, 'a problem section'));
  const kinds = sections.map((s) => atomText(s.items[0], s.line, 'a section keyword'));
  const byKind = (k: string) => sections.filter((_, i) => kinds[i] === k);
  kinds.forEach((k, i) => {
    if (![':domain', ':objects', ':init', ':goal', ':requirements'].includes(k)) fail(sections[i].line, `unsupported problem section "${k}"`);
  });
  for (const s of byKind(':domain')) {
    problem.domain = atomText(s.items[1], s.line, 'the domain name');
    if (problem.domain !== domain.name) fail(s.line, `the problem is for domain "${problem.domain}", not "${domain.name}"`);
  }
  if (!problem.domain) fail(top.line, 'the problem has no (:domain NAME)');

  // Objects, then the domain constants (pddlgym appends the constants to the problem objects).
  const types = new Map<string, string>();
  for (const s of byKind(':objects')) {
    for (const o of readTypedList(s.items.slice(1), ':objects')) {
      if (!domain.types.has(o.type)) fail(s.line, `unknown type "${o.type}" for object ${o.name}`);
      const known = types.get(o.name);
      if (known !== undefined && known !== o.type) fail(s.line, `object ${o.name} is declared with two types`);
      if (known === undefined) problem.objects.push(o);
      types.set(o.name, o.type);
    }
  }
  for (const c of domain.constants) {
    const known = types.get(c.name);
    if (known !== undefined && known !== c.type) fail(top.line, `object ${c.name} is also a domain constant of another type`);
    if (known === undefined) problem.objects.push(c);
    types.set(c.name, c.type);
  }
  const terms = new Set(types.keys());

  for (const s of byKind(':init')) {
    sawInit = true;
    for (const e of s.items.slice(1)) {
      const fact = asList(e, s.line, 'a fact in :init');
      const head0 = atomText(fact.items[0], fact.line, 'a predicate name');
      if (head0 === 'not' || head0 === 'and' || head0 === '=') fail(fact.line, `:init takes positive facts only, found "${head0}"`);
      problem.init.push(readAtom(domain, fact, terms, ':init'));
    }
  }
  for (const s of byKind(':goal')) {
    sawGoal = true;
    readGoal(domain, problem, asList(s.items[1], s.line, 'a goal formula'), terms);
  }
  if (!sawInit) fail(top.line, 'the problem has no :init');
  if (!sawGoal) fail(top.line, 'the problem has no :goal');
  return problem;
}

function readGoal(domain: Domain, problem: Problem, list: SList, terms: Set<string>): void {
  if (list.items.length === 0) return;
  const head = atomText(list.items[0], list.line, 'a goal formula');
  if (head === 'and') {
    for (const c of list.items.slice(1)) readGoal(domain, problem, asList(c, list.line, 'a goal literal'), terms);
  } else if (head === 'not') {
    const inner = asList(list.items[1], list.line, 'an atom inside (not ...) in :goal');
    problem.goal.push({ ...readAtom(domain, inner, terms, ':goal'), negated: true });
  } else if (UNSUPPORTED.has(head) || head === '=') {
    fail(list.line, `"${head}" is not supported in :goal (conjunctions of literals only)`);
  } else {
    problem.goal.push({ ...readAtom(domain, list, terms, ':goal'), negated: false });
  }
}
