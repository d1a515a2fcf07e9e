/**
 * proposePattern (issue 13 §2): the AgentBoard pattern an annotator starts from when
 * marking "a subgoal was reached here": the smallest pattern that matches this step's
 * observation and none of the earlier ones (the initial observation included), so the
 * subgoal it defines would fire exactly here on this episode.
 *
 * Candidates are built from whole words of one sentence of the observation: one run of
 * consecutive words, or two runs joined with "**" (AgentBoard's "piece ** piece" form).
 * Smallest = fewest words, then one piece before two, then fewest characters, then the
 * earliest position. Every candidate is checked with AgentBoard's own match_style
 * (envs/core/subgoals.ts), so the guarantee holds by construction.
 */
import { patternPieces, piecesMatch, sentencesOf } from '../../envs/core/subgoals.ts';

/** Longest candidate tried, in words (a whole long sentence is rarely what an annotator wants). */
const MAX_WORDS = 24;

interface Word {
  start: number;
  end: number;
}

function wordsOf(sentence: string): Word[] {
  const out: Word[] = [];
  for (const m of sentence.matchAll(/\S+/g)) out.push({ start: m.index!, end: m.index! + m[0].length });
  return out;
}

/** A piece may hold neither '*' (AgentBoard's split token) nor '.' (never inside a sentence anyway). */
function usable(piece: string): boolean {
  return !piece.includes('*') && !piece.includes('.');
}

/** "a ** b" when the sentence has spaces there (AgentBoard's style: the pieces keep them), else "a**b". */
function joinPieces(sentence: string, a: Word, b: Word): string {
  const left = sentence.slice(a.start, a.end);
  const right = sentence.slice(b.start, b.end);
  const spaced = sentence[a.end] === ' ' && sentence[b.start - 1] === ' ';
  return spaced ? `${left} ** ${right}` : `${left}**${right}`;
}

interface Candidate {
  pattern: string;
  words: number;
  pieces: number;
  chars: number;
  order: number;
}

function better(a: Candidate, b: Candidate | null): boolean {
  if (!b) return true;
  if (a.words !== b.words) return a.words < b.words;
  if (a.pieces !== b.pieces) return a.pieces < b.pieces;
  if (a.chars !== b.chars) return a.chars < b.chars;
  return a.order < b.order;
}

/** Every candidate of the step (matching it, no earlier observation) of `size` words, smallest first; null when no sentence can give one. */
type Enumerator = (size: number) => Candidate[];

function enumerator(observations: readonly string[], stepIndex: number): { bySize: Enumerator; wholes: () => string[] } | null {
  if (!Number.isInteger(stepIndex) || stepIndex < 0 || stepIndex >= observations.length) {
    throw new RangeError(`stepIndex ${stepIndex} outside 0..${observations.length - 1}`);
  }
  const earlier = observations.slice(0, stepIndex).map(sentencesOf);
  const unseen = (pattern: string): boolean => {
    const pieces = patternPieces(pattern);
    return earlier.every((sentences) => !piecesMatch(sentences, pieces));
  };
  const target = sentencesOf(observations[stepIndex]);
  const matchesTarget = (pattern: string): boolean => piecesMatch(target, patternPieces(pattern));
  // Pieces are made of whole words, so a sentence whose words (first to last) lie inside an
  // earlier sentence yields only patterns that matched earlier too: skip it.
  const earlierSentences = earlier.flat();
  const sentences = target
    .map((s) => ({ s, words: wordsOf(s) }))
    .filter(({ s, words }) => {
      if (words.length === 0) return false;
      const core = s.slice(words[0].start, words[words.length - 1].end);
      return !earlierSentences.some((e) => e.includes(core));
    });
  if (sentences.length === 0) return null;
  let order = 0;
  const bySize = (size: number): Candidate[] => {
    const out: Candidate[] = [];
    const consider = (pattern: string, pieces: number) => {
      const c: Candidate = { pattern, words: size, pieces, chars: pattern.length, order: order++ };
      if (matchesTarget(pattern) && unseen(pattern)) out.push(c);
    };
    for (const { s, words } of sentences) {
      // One piece: `size` consecutive words.
      for (let i = 0; i + size <= words.length; i++) {
        const piece = s.slice(words[i].start, words[i + size - 1].end);
        if (usable(piece)) consider(piece, 1);
      }
      // Two pieces of a and size − a words, the second after the first with a gap.
      for (let a = 1; a < size; a++) {
        const b = size - a;
        for (let i = 0; i + a <= words.length; i++) {
          const first = { start: words[i].start, end: words[i + a - 1].end };
          if (!usable(s.slice(first.start, first.end))) continue;
          for (let j = i + a + 1; j + b <= words.length; j++) {
            const second = { start: words[j].start, end: words[j + b - 1].end };
            if (usable(s.slice(second.start, second.end))) consider(joinPieces(s, first, second), 2);
          }
        }
      }
    }
    return out.sort((x, y) => (better(x, y) ? -1 : better(y, x) ? 1 : 0));
  };
  const wholes = () =>
    sentences.flatMap(({ s, words }) => {
      const whole = s.slice(words[0].start, words[words.length - 1].end);
      return usable(whole) && matchesTarget(whole) && unseen(whole) ? [whole] : [];
    });
  return { bySize, wholes };
}

/**
 * The smallest AgentBoard pattern matching observations[stepIndex] and no earlier
 * observation (observations[0] is the initial one), or null when none exists (e.g. the
 * same text was seen before).
 */
export function proposePattern(observations: readonly string[], stepIndex: number): string | null {
  const e = enumerator(observations, stepIndex);
  if (!e) return null;
  for (let size = 1; size <= MAX_WORDS; size++) {
    const found = e.bySize(size);
    if (found.length) return found[0].pattern;
  }
  // Longer than MAX_WORDS: a whole sentence, if one qualifies.
  return e.wholes()[0] ?? null;
}

/** Words that say nothing on their own: a proposal must hold at least one other word. */
const STOP_WORDS = new Set(
  'a an the and or of to in on at by for with from into onto is are was were be been it its this that these those there here you your i me my we our they them he she his her as not no yes so than then up down'.split(' '),
);

/** Does the pattern hold a word that means something (not a stop word, not a bare number)? */
export function hasContentWord(pattern: string): boolean {
  return pattern
    .toLowerCase()
    .split(/[^\p{L}\p{N}_-]+/u)
    .some((w) => w.length > 1 && !STOP_WORDS.has(w) && !/^[\d_-]+$/.test(w));
}

/** How many sizes beyond the smallest the ranking looks at. */
const EXTRA_SIZES = 2;

/**
 * Candidate patterns for observations[stepIndex] (each matching it and no earlier
 * observation of this episode), best first: only those with a content word; ranked by how
 * well they tell this moment apart across the stored episodes (`corpus`: each episode's
 * observations, the initial one first) — first fewest episodes whose initial observation
 * they already match (they would fire before anything happened), then the smallest share of
 * all stored observations they match (a pattern that matches everywhere marks no moment),
 * then smallest (fewest words, one piece, fewest characters).
 */
export function proposePatterns(observations: readonly string[], stepIndex: number, corpus: readonly (readonly string[])[] = [], limit = 8): string[] {
  const e = enumerator(observations, stepIndex);
  if (!e) return [];
  const found: Candidate[] = [];
  let first = 0;
  for (let size = 1; size <= MAX_WORDS && (first === 0 || size <= first + EXTRA_SIZES); size++) {
    const some = e.bySize(size).filter((c) => hasContentWord(c.pattern));
    if (some.length && !first) first = size;
    found.push(...some);
  }
  const patterns = found.length ? found.map((c) => c.pattern) : e.wholes().filter(hasContentWord);
  const texts = corpus.map((obs) => obs.map(sentencesOf));
  const total = texts.reduce((n, obs) => n + obs.length, 0);
  const scoreOf = (pattern: string) => {
    const pieces = patternPieces(pattern);
    let early = 0;
    let hits = 0;
    for (const obs of texts) {
      if (obs.length && piecesMatch(obs[0], pieces)) early++;
      for (const o of obs) if (piecesMatch(o, pieces)) hits++;
    }
    return { early, share: total ? hits / total : 0 };
  };
  const scored = [...new Set(patterns)].map((p, order) => ({ p, order, ...scoreOf(p) }));
  scored.sort((a, b) => a.early - b.early || a.share - b.share || a.order - b.order);
  return scored.slice(0, limit).map((x) => x.p);
}
