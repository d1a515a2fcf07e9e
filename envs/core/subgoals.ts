/**
 * AgentBoard's subgoal pattern matcher and its crediting rule (README.md, "AgentBoard
 * subgoals and metrics"), shared by the BabyAI environment (envs/babyai/progress.ts) and the annotation
 * runtime (runtime/annotation/), so both score with one definition.
 *
 * Pattern syntax (match_style): the trimmed pattern is split on "**", or on "*" when it
 * has no "**"; each piece loses leading/trailing '.' characters (spaces are kept); the
 * pattern matches an observation when one '.'-separated sentence contains every piece
 * as a substring.
 */

/** The pieces a pattern is split into (what each sentence must contain). */
export function patternPieces(pattern: string): string[] {
  const p = pattern.trim();
  return p.split(p.includes('**') ? '**' : '*').map((piece) => piece.replace(/^\.+|\.+$/g, ''));
}

/** The observation's sentences as AgentBoard sees them: split on every '.'. */
export function sentencesOf(observation: string): string[] {
  return observation.split('.');
}

/** True when one sentence contains every piece (pieces from patternPieces). */
export function piecesMatch(sentences: readonly string[], pieces: readonly string[]): boolean {
  for (const sentence of sentences) {
    let all = true;
    for (const piece of pieces) {
      if (!sentence.includes(piece)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

/** AgentBoard's match_style(observation, pattern). */
export function matchStyle(observation: string, pattern: string): boolean {
  return piecesMatch(sentencesOf(observation), patternPieces(pattern));
}

/**
 * AgentBoard's crediting for one step: the first remaining subgoal (in list order) that
 * fires is credited, and no other — at most one subgoal per step. Returns its position
 * in `remaining`, or -1.
 */
export function firstFiring<T>(remaining: readonly T[], fires: (subgoal: T) => boolean): number {
  for (let i = 0; i < remaining.length; i++) if (fires(remaining[i])) return i;
  return -1;
}
