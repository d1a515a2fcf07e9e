/**
 * AgentBoard's text layer for PDDL (README.md, Upstream; pddl_env.py): how facts, goals
 * and actions are written, and how action text is read back.
 */

/**
 * The predicate/action format map as Python sees it: AgentBoard's dict literal
 * repeats some keys, and the LAST value wins (quirks kept):
 *   clear   → "The {} is clear."      (the later hanoi entry, not "{} is clear.")
 *   holding → "You are holding {}. "  (barman's, also used for blocks; barman's
 *                                      holding(hand, container) prints only the hand)
 *   free    → "{} is free. "          (gripper's, also used for tyreworld hubs)
 *   move    → "Move from {} to {}. "  (gripper's, not hanoi's)
 * Predicates and actions not listed (room, handempty, drop, ...) print as "name arg1 arg2".
 */
export const FORMATS: Readonly<Record<string, string>> = {
  // blocks
  on: '{} is on {}.',
  clear: 'The {} is clear.',
  'arm-empty': 'Your arm is empty.',
  'on-table': '{} is on the table.',
  putdown: 'Putdown {}.',
  stack: 'Stack {} on {}.',
  pickup: 'Pickup {}.',
  unstack: 'Unstack {} from {}.',
  // tyreworld (and the unused vehicle entries of the same dict)
  'vehicle-at': 'The vehicle is at {}.',
  changetire: 'Change tire at {}',
  'spare-in': 'The spare tire is in {}.',
  road: 'There is a road from {} to {}.',
  movecar: 'Move the car to {}.',
  isopen: '{} is open.',
  closed: '{} is closed.',
  have: 'You have {}.',
  in: '{} is in {}.',
  loose: 'The nut {} on the hub {} is loose.',
  tight: 'The nut {} on the hub {} is tight.',
  unlocked: '{} is unlocked.',
  'on-ground': 'Hub {} is on the ground.',
  'not-on-ground': 'Hub {} is not on the ground.',
  inflated: 'Wheel {} is inflated.',
  'not-inflated': 'Wheel {} is not inflated.',
  fastened: 'Hub {} is fastened.',
  unfastened: 'Hub {} is unfastened.',
  intact: 'Wheel {} is intact.',
  open: 'Open {}.',
  close: 'Close {}.',
  fetch: 'Fetch {} from {}.',
  'put-away': 'Put-away {} in {}.',
  loosen: 'Loosen the nut {} on the hub {}.',
  tighten: 'Tighten the nut {} on the hub {}.',
  'jack-up': 'jack-up the hub {}.',
  'jack-down': 'Jack-down the hub {}.',
  undo: 'Undo the fastening of the nut {} on the hub {}.',
  'do-up': 'Do-up the nut {} on the hub {}.',
  'remove-wheel': 'Remove-wheel {} from the hub {}.',
  'put-on-wheel': 'put-on-wheel {} on the hub {}.',
  inflate: 'Inflate the wheel {}.',
  // hanoi (unused here)
  smaller: '{} is smaller than {}.',
  // gripper
  ball: '{} is a ball. ',
  gripper: '{} is a gripper. ',
  'at-robby': 'Robby is at {}. ',
  at: '{} is at {}. ',
  free: '{} is free. ',
  carry: '{} is carrying {}. ',
  move: 'Move from {} to {}. ',
  pick: 'Pick up {} at {} with arm {}. ',
  // barman
  ontable: '{} is on the table. ',
  holding: 'You are holding {}. ',
  empty: '{} is empty. ',
  contains: '{} contains {}. ',
  clean: '{} is clean. ',
  used: 'Pour {} from a shot glass to a used shaker {}',
  dispenses: '{} dispenses {}. ',
  'shaker-empty-level': '{} is at empty level {}. ',
  'shaker-level': '{} is at level {}. ',
  next: 'level {} is next to level {}. ',
  unshaked: '{} is unshaked. ',
  shaked: '{} is shaked. ',
  'cocktail-part1': '{} part1 ingredient is {}. ',
  'cocktail-part2': '{} part2 ingredient is {}. ',
  grasp: '{} grasp {}. ',
  leave: '{} leave {}. ',
  'fill-shot': 'fill-shot glass {} with {} with {} and {} holding {}. ',
  'refill-shot': 'refill-shot {} with {} with {} and {} holding {}. ',
  'empty-shot': 'use hand {} to empty-shot glass {} with beverage {}. ',
  'clean-shot': 'clean-shot glass {} with {} with hand {} holding shot glass and {}. ',
  'pour-shot-to-clean-shaker': 'pour-shot-to-clean-shaker from a shot glass {} with {} to a clean shaker {} with hand {} from level {} to level {}',
  'pour-shot-to-used-shaker': 'pour-shot-to-used-shaker from a shot glass {} with {} to a used shaker {} with hand {} from level {} to level {}',
  'empty-shaker': 'use hand {} to empty-shaker {} with ingredient {} from level {} to level {}.',
  'clean-shaker': 'use hand {} and hand {} to clean-shaker {}',
  shake: 'shake a cocktail {} with ingredient {} and ingredient {} in a shaker {} with hand {} and hand {}',
  'pour-shaker-to-shot': 'pour-shaker-to-shot to a shot glass {} the ingredient {} with hand {} from shaker {} from level {} to level {}',
};

export const GOAL_PREFIX = 'The goal is to satisfy the following conditions: ';
export const INVALID_UNPARSED = 'The action is not valid and therefore takes no effect. Please check valid actions.';
export const INVALID_PRECONDITION =
  'The action is not valid and therefore takes no effect. Please remember to satisfy the restriction of actions. You can also check valid actions.';
export const GOAL_SATISFIED = ' The goal is satisfied.';
export const CHECK_ACTION = 'check valid actions';
export const LOOK_ACTION = 'look around';

/** Python's str.format with positional "{}" fields; extra arguments are ignored (barman's holding). */
export function pyFormat(template: string, args: readonly string[]): string {
  let i = 0;
  return template.replace(/\{\}/g, () => args[i++] ?? '');
}

/** pddl_env.literal_to_text: the format map, else "name arg1 arg2 ...". */
export function literalText(pred: string, args: readonly string[]): string {
  const f = FORMATS[pred];
  return f !== undefined ? pyFormat(f, args) : `${pred} ${args.join(' ')}`;
}

const factTexts = new Map<string, string>();
const stateTexts = new Map<string, string>();

/** A fact key "pred arg1 arg2" written through the format map (memoised: texts are pure functions of the key). */
export function factText(key: string): string {
  let t = factTexts.get(key);
  if (t === undefined) {
    const [pred, ...args] = key.split(' ');
    t = literalText(pred, args);
    factTexts.set(key, t);
  }
  return t;
}

/** A fact as the state text shows it: written, then capitalized. */
function stateFactText(key: string): string {
  let t = stateTexts.get(key);
  if (t === undefined) {
    t = capitalize(factText(key));
    stateTexts.set(key, t);
  }
  return t;
}

/** Python's str.capitalize: first character upper case, THE REST LOWER CASE. */
export function capitalize(s: string): string {
  if (s.length === 0) return s;
  const first = String.fromCodePoint(s.codePointAt(0)!);
  return first.toUpperCase() + s.slice(first.length).toLowerCase();
}

/** Python's default string order (code points; equal to UTF-16 order for these ASCII texts). */
export const pyCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function pySort(texts: string[]): string[] {
  return texts.sort(pyCompare);
}

/** State text: each fact written, capitalized, sorted, joined with one space (texts ending in a space give two). */
export function stateText(keys: readonly string[]): string {
  return pySort(keys.map(stateFactText)).join(' ');
}

/**
 * Goal text as the agent sees it (env._get_goal): the goal literals written (not
 * capitalized), sorted, joined with ", ". A negated goal literal, which none of the
 * 60 problems has, is written "not " + its text.
 */
export function goalText(goal: readonly { key: string; negated: boolean }[]): string {
  return GOAL_PREFIX + goalLiteralTexts(goal).join(', ');
}

export function goalLiteralTexts(goal: readonly { key: string; negated: boolean }[]): string[] {
  return pySort(goal.map((g) => (g.negated ? 'not ' : '') + factText(g.key)));
}

/**
 * The same goal as test.jsonl writes it: `subgoals` are the sorted literal texts
 * trimmed, and `goal` is the prefix plus the untrimmed texts joined with single
 * spaces (a text that already ends in a space is not given a second one).
 */
export function datasetGoal(goal: readonly { key: string; negated: boolean }[]): { goal: string; subgoals: string[] } {
  const texts = goalLiteralTexts(goal);
  return {
    goal: GOAL_PREFIX + texts.map((t, i) => (i < texts.length - 1 && !t.endsWith(' ') ? t + ' ' : t)).join(''),
    subgoals: texts.map((t) => t.trim()),
  };
}

// ---------------------------------------------------------------------------
// Tokenizer

/**
 * nltk.word_tokenize as it behaves on command text: the text is split into
 * sentences after a word ending in '.', '?' or '!' (Punkt; its abbreviation list is
 * not modelled), then each sentence goes through the Treebank rules that matter for
 * matching names: quotes, brackets, ';@#$%&*?!', commas and colons before a
 * non-digit, "--", "..", a sentence-final period, and the English clitics
 * ('s 'm 'd 'll 're 've n't). Hyphens and inner periods stay inside a word, so
 * "the-hub1" and "put-on-wheel" are one token each.
 */
export function wordTokenize(text: string): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(text)) for (const t of treebank(sentence)) out.push(t);
  return out;
}

function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  // A sentence ends after [.?!] (plus closing quotes/brackets) followed by white space.
  const re = /[.?!]["')\]}>»”’]*(?=\s)/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const end = m.index + m[0].length;
    sentences.push(text.slice(start, end));
    start = end;
  }
  sentences.push(text.slice(start));
  return sentences.filter((s) => s.trim() !== '');
}

const TREEBANK: [RegExp, string][] = [
  // starting quotes
  [/([«“‘„]|`+)/g, ' $1 '],
  [/^"/, '``'],
  [/(``)/g, ' $1 '],
  [/([ ([{<])("|'{2})/g, '$1 `` '],
  [/(')(?!re|ve|ll|m|t|s|d|n)(\w)\b/gi, '$1 $2'],
  // punctuation
  [/([^.])(\.)([\])}>"']*)\s*$/, '$1 $2$3 '],
  [/([:,])([^\d])/g, ' $1 $2'],
  [/([:,])$/, ' $1 '],
  [/\.{2,}/g, ' $& '],
  [/[;@#$%&]/g, ' $& '],
  [/([^.])(\.)([\])}>"']*)\s*$/, '$1 $2$3 '],
  [/[?!]/g, ' $& '],
  [/([^'])' /g, "$1 ' "],
  [/[*]/g, ' $& '],
  // brackets, dashes
  [/[\][(){}<>]/g, ' $& '],
  [/--/g, ' -- '],
];

const ENDING: [RegExp, string][] = [
  [/([»”’])/g, ' $1 '],
  [/''/g, " '' "],
  [/"/g, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /g, '$1 $2 '],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /g, '$1 $2 '],
];

function treebank(sentence: string): string[] {
  let s = sentence;
  for (const [re, sub] of TREEBANK) s = s.replace(re, sub);
  s = ` ${s} `;
  for (const [re, sub] of ENDING) s = s.replace(re, sub);
  return s.split(/\s+/).filter((t) => t !== '');
}
