/**
 * One AgentBoard BabyAI episode over text (README.md, Upstream, "Action handling"): the
 * action text is lowercased and trimmed; "check …" lists the actions; an unknown
 * or unavailable name gets its error message; a known name runs its low-level
 * actions one by one, stopping early after an action that leaves the 7×7 image
 * unchanged. After a run the observation is re-rendered, the subgoal progress is
 * updated, and done = minigrid's `terminated` (last low-level step) unless the
 * progress is ≤ 0.5, or forced when the progress reaches 1.
 */
import { observe, sameImage } from './view.ts';
import { stepWorld, type World } from './step.ts';
import { describeScene, scanView } from './text.ts';
import { actionSet, FAITHFUL, type TextOptions } from './highlevel.ts';
import { initProgress, updateProgress, type ProgressState } from './progress.ts';

export const COMPLETED = '\n The task is completed.';
export const NOT_RECOGNIZED = 'The action is not recognized. Please check valid actions.';
export const NO_CHANGE = 'No change in state.';
export const CHECK_PREFIX = 'You can take the following actions: ';

export interface SessionState {
  readonly world: World;
  /** obs["image"] of the current world (what the early-stop rule compares with). */
  readonly image: Uint8Array;
  /** The high-level actions offered now, in AgentBoard's order. */
  readonly actions: readonly (readonly [string, readonly number[]])[];
  readonly errors: readonly (readonly [string, string])[];
  /** The last observation AgentBoard returned (states[-1]). */
  readonly observation: string;
  readonly progress: ProgressState;
  /** AgentBoard's done flag (the success criterion). */
  readonly done: boolean;
  /** infos["action_is_valid"] after the last step (kept when a step does not set it). */
  readonly lastValid: boolean;
}

export interface SessionStep {
  state: SessionState;
  valid: boolean;
  /** Low-level actions actually executed by this step. */
  executed: number[];
  /** minigrid's reward / terminated / truncated of the last executed low-level action. */
  lowReward: number;
  lowTerminated: boolean;
  lowTruncated: boolean;
}

function render(world: World, image: Uint8Array, options: TextOptions) {
  const scene = scanView(world.agentPos, world.agentDir, world.carrying, image);
  const set = actionSet(scene, options);
  return { text: describeScene(scene), actions: [...set.actions], errors: [...set.errors] };
}

export function startSession(world: World, subgoals: readonly (readonly string[])[], multi: boolean, options: TextOptions = FAITHFUL): SessionState {
  const image = observe(world);
  const r = render(world, image, options);
  return {
    world,
    image,
    actions: r.actions,
    errors: r.errors,
    observation: r.text,
    progress: initProgress(subgoals, multi),
    done: false,
    lastValid: true,
  };
}

/** Python's str.isspace() for one UTF-16 code unit (str.strip() removes these; JS trim() differs on \x1c-\x1f, \x85 and \ufeff). */
function isPySpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * AgentBoard's `action.lower().strip()`, stripped first (lowercasing neither makes nor removes
 * white space), so a long padded reply is not lowercased whole. The strip scans from both ends:
 * linear, where the regular expression `\s+$` it replaces retried at every space of a long run
 * (9.4 s on a 100 kB reply, minutes on 1 MB).
 */
export function normalizeAction(text: string): string {
  return pyStrip(String(text)).toLowerCase();
}

function pyStrip(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && isPySpace(text.charCodeAt(a))) a++;
  while (b > a && isPySpace(text.charCodeAt(b - 1))) b--;
  return text.slice(a, b);
}

export function stepSession(s: SessionState, text: string, options: TextOptions = FAITHFUL): SessionStep {
  const action = normalizeAction(text);
  const same = (observation: string, valid: boolean): SessionStep => ({
    state: { ...s, observation, lastValid: valid },
    valid,
    executed: [],
    lowReward: 0,
    lowTerminated: false,
    lowTruncated: false,
  });
  if (action.includes('check')) return same(CHECK_PREFIX + s.actions.map(([name]) => name).join(', '), true);
  if (action === '') return same(NO_CHANGE, false);
  const entry = s.actions.find(([name]) => name === action);
  if (!entry) {
    const err = s.errors.find(([name]) => name === action);
    return same(err ? err[1] : NOT_RECOGNIZED, false);
  }
  const list = entry[1];
  // Only "check available actions" maps to no low-level action, and "check" is caught above;
  // AgentBoard answers an empty list with "No change in state." and leaves the validity flag as it was.
  if (list.length === 0) {
    const r = same(NO_CHANGE, s.lastValid);
    return r;
  }

  let world = s.world;
  let image = s.image;
  const executed: number[] = [];
  let low = { reward: 0, terminated: false, truncated: false };
  for (const a of list) {
    const out = stepWorld(world, a);
    world = out.world;
    executed.push(a);
    low = out;
    const next = observe(world);
    const changed = !sameImage(next, image);
    image = next;
    if (!changed) break;
  }

  const r = render(world, image, options);
  let done = low.terminated;
  let observation = r.text;
  if (done) observation += COMPLETED;
  const progress = updateProgress(s.progress, observation);
  if (done && progress.progress <= 0.5) done = false;
  if (progress.progress === 1 && !done) {
    done = true;
    observation += COMPLETED;
  }
  return {
    state: { world, image, actions: r.actions, errors: r.errors, observation, progress, done, lastValid: true },
    valid: true,
    executed,
    lowReward: low.reward,
    lowTerminated: low.terminated,
    lowTruncated: low.truncated,
  };
}
