/**
 * SmartPlay's shared machinery (README.md, "SmartPlay"): the action list text, the
 * driver's action matching, and the history window shown to the model.
 */

/** SmartPlay's describe_act: "List of all actions:" then "1. ..." lines. */
export function describeActions(actions: readonly string[]): string {
  return `List of all actions:\n${actions.map((a, i) => `${i + 1}. ${a}`).join('\n')}`;
}

export interface ActionMatch {
  index: number;
  /** False when no action occurred in the text and SmartPlay fell back to action 0. */
  matched: boolean;
}

const isAscii = (s: string) => !/[^\x00-\x7f]/.test(s);

/**
 * The reply lowercased for finding ASCII actions in it, in time linear in its length whatever
 * it holds (toLowerCase of 1 MB of exotic Unicode takes 100 ms and more). Only two characters
 * outside ASCII lowercase to ASCII letters, İ (to "i" and a combining dot) and the Kelvin sign
 * K (to "k"); every other run of non-ASCII text becomes one NUL, which no ASCII action holds.
 * So an action occurs here exactly where it occurs in the fully lowercased reply, in the same
 * order, and the earliest one is the same.
 */
function lowerForAsciiSearch(text: string): string {
  if (isAscii(text)) return text.toLowerCase();
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  let inRun = false; // inside a run of other non-ASCII text (already one NUL)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
      inRun = false;
    } else if (c === 0x130) {
      out[n++] = 0x69; // "i", then its combining dot as the NUL
      out[n++] = 0;
      inRun = true;
    } else if (c === 0x212a) {
      out[n++] = 0x6b;
      inRun = false;
    } else if (!inRun) {
      out[n++] = 0;
      inRun = true;
    }
  }
  return ASCII_DECODER.decode(out.subarray(0, n));
}

/** Bytes below 0x80 decode to the same code points in windows-1252 (the Encoding Standard's "latin1"). */
const ASCII_DECODER = new TextDecoder('latin1');

/**
 * SmartPlay's match_act: lowercase the reply; among the actions that occur in it
 * as substrings pick the one whose first occurrence starts earliest (the lower
 * action index wins a tie); none found ⇒ action 0.
 * `lowered` is the action list already lowercased (callers precompute it).
 */
export function matchAction(text: string, lowered: readonly string[]): ActionMatch {
  const reply = lowered.every(isAscii) ? lowerForAsciiSearch(text) : text.toLowerCase();
  let best = -1;
  let bestAt = Infinity;
  for (let i = 0; i < lowered.length; i++) {
    const at = reply.indexOf(lowered[i]);
    if (at !== -1 && at < bestAt) {
      best = i;
      bestAt = at;
    }
  }
  return best === -1 ? { index: 0, matched: false } : { index: best, matched: true };
}

/**
 * SmartPlay's HistoryTracker.describe() as seen at step `observations.length - 1`:
 * the previous observations (not the current one), at most `window` of them,
 * labelled with their step numbers ("Step 0" is the reset observation).
 * Returns "" when there is no previous observation.
 */
export function describeHistory(observations: readonly string[], window: number): string {
  const current = observations.length - 1;
  const n = Math.min(current, window);
  if (n <= 0) return '';
  let out = `Most recent ${n} steps of the player's in-game observation:\n\n`;
  for (let k = current - n; k < current; k++) out += `Player Observation Step ${k}:\n${observations[k]}\n\n`;
  return out.trim();
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** SmartPlay's first system line (note the curly apostrophe, as upstream). */
export const SMARTPLAY_PLAYER_LINE = 'You’re a player trying to play the game.';

/**
 * The system messages SmartPlay's driver sends before its two questions
 * (examples/experiment.py compose_ingame_prompt): player line, manual,
 * history window, current observation. Empty manual/history are left out.
 */
export function smartplayContext(manual: string, observations: readonly string[], window: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: SMARTPLAY_PLAYER_LINE }];
  if (manual.length > 0) messages.push({ role: 'system', content: manual });
  const history = describeHistory(observations, window);
  if (history.length > 0) messages.push({ role: 'system', content: history });
  messages.push({ role: 'system', content: `current step observation: ${observations[observations.length - 1]}` });
  return messages;
}
