/**
 * What each benchmark puts between the model and the game (README.md, Upstream).
 *
 * AgentBench House-Holding (src/server/tasks/alfworld/task.py and utils.py at 41e6807):
 *   - the action is `ACTION:(.*)` of the reply, its first line, stripped and lowercased; no match
 *     ends the sample (AGENT_INVALID_ACTION); a command not admissible is mapped to the admissible
 *     one with the highest BLEU (nltk sentence_bleu, smoothing method4) when that is above 0.01;
 *   - a leading "You arrive at loc N. " is cut from the observation, and every user turn ends with
 *     " AVAILABLE ACTIONS: " and the admissible commands joined by newlines, then a newline; a turn
 *     loses that part once the model has answered it.
 * AgentBoard ALFWorld (agentboard/environment/alfworld/alfworld_env.py, tasks/alfworld.py at bb7255e):
 *   - the action is stripped, "put X in Y"/"put X on Y" become "put X in/on Y", a final "." dropped;
 *   - "check valid actions" is answered without the game: "Choose an action from these valid
 *     actions: " and the valid actions (the admissible ones and "check valid actions") joined by ", ";
 *   - "look" is played, but answered with the last "go to"/"open" result (or the first observation);
 *   - the same "You arrive at loc N. " cut.
 */

/** AgentBench's task instruction (ALFWorld.get_task_instruction). */
export const AGENTBENCH_INSTRUCTION =
  'Interact with a household to solve a task. Imagine you are an intelligent agent in a household environment and your target is to perform actions to complete the task goal. At the beginning of your interactions, you will be given the detailed description of the current environment and your goal to accomplish. For each of your turn, you will be given a list of actions which you can choose one to perform in this turn. You should choose from two actions: "THOUGHT" or "ACTION". If you choose "THOUGHT", you should first think about the current condition and plan for your future actions, and then output your action in this turn. Your output must strictly follow this format:"THOUGHT: your thoughts.\n ACTION: your next action\n"; If you choose "ACTION", you should directly output the action in this turn. Your output must strictly follow this format:"ACTION: your next action\n". After your each turn, the environment will give you immediate feedback based on which you plan your next few steps. if the environment output "Nothing happened", that means the previous action is invalid and you should try more options.\n Reminder: \n1. the action must be chosen from the given available actions. Any actions except provided available actions will be regarded as illegal. \n2. Think when necessary, try to act directly more in the process.\n\n';

/** The agent turn AgentBench injects after the instruction. */
export const AGENTBENCH_ACK = "OK. I'll follow your instructions and try my best to solve the task.";

/** The task-type prefixes both benchmarks map to an example set (task.py / tasks/alfworld.py `prefixes`). */
export const PREFIXES: readonly [string, string][] = [
  ['pick_and_place', 'put'],
  ['pick_clean_then_place', 'clean'],
  ['pick_heat_then_place', 'heat'],
  ['pick_cool_then_place', 'cool'],
  ['look_at_obj', 'examine'],
  ['pick_two_obj', 'puttwo'],
];

export function exampleKey(taskFolder: string): string {
  const hit = PREFIXES.find(([prefix]) => taskFolder.startsWith(prefix));
  if (!hit) throw new Error(`No example set for the task "${taskFolder}".`);
  return hit[1];
}

/** utils.process_ob (both benchmarks): cut a leading "You arrive at loc N. ". */
export function processOb(ob: string): string {
  return ob.startsWith('You arrive at loc ') ? ob.slice(ob.indexOf('. ') + 2) : ob;
}

/** ALFWorld.get_available_actions. */
export function availableActions(commands: readonly string[]): string {
  return ' AVAILABLE ACTIONS: ' + commands.join('\n') + '\n';
}

// -- BLEU (nltk.translate.bleu_score.sentence_bleu with SmoothingFunction().method4) -------------

function ngrams(tokens: readonly string[], n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const k = tokens.slice(i, i + n).join('\u0000');
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

/** Python's math.fsum for a few terms (exactly rounded sum, Shewchuk's algorithm). */
function fsum(values: readonly number[]): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  return partials.reduce((a, b) => a + b, 0);
}

/**
 * sentence_bleu([reference.split()], candidate.split(), smoothing_function=method4), as nltk 3.6.6
 * and later compute it (AgentBench does not pin nltk; 3.8.1 was current at 41e6807): precisions
 * still zero after smoothing (a one-word candidate's 2- to 4-grams, which method4 leaves alone) are
 * left out of the sum (corpus_bleu: `s = (w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if
 * p_i > 0)`), so "sinkbasin" scores exp(1 - 4/1) against "go to sinkbasin 1".
 */
export function bleu(reference: string, candidate: string): number {
  const ref = reference.split(/\s+/).filter(Boolean);
  const hyp = candidate.split(/\s+/).filter(Boolean);
  const nums: number[] = [];
  const dens: number[] = [];
  for (let n = 1; n <= 4; n++) {
    const h = ngrams(hyp, n);
    const r = ngrams(ref, n);
    let clipped = 0;
    let total = 0;
    for (const [k, c] of h) {
      clipped += Math.min(c, r.get(k) ?? 0);
      total += c;
    }
    nums.push(clipped);
    dens.push(Math.max(1, total));
  }
  if (nums[0] === 0) return 0;
  const hypLen = hyp.length;
  const refLen = ref.length;
  const bp = hypLen > refLen ? 1 : hypLen === 0 ? 0 : Math.exp(1 - refLen / hypLen);
  const p: number[] = nums.map((x, i) => x / dens[i]);
  let incvnt = 1;
  for (let i = 0; i < 4; i++) {
    if (nums[i] === 0 && hypLen > 1) {
      const numerator = 1 / ((2 ** incvnt * 5) / Math.log(hypLen));
      p[i] = numerator / dens[i];
      incvnt++;
    }
  }
  return bp * Math.exp(fsum(p.filter((x) => x > 0).map((x) => 0.25 * Math.log(x))));
}

/** utils.process_action: the command AgentBench plays for a reply, or null (no "ACTION:"). */
export function agentbenchAction(reply: string, choices: readonly string[]): string | null {
  const m = /ACTION:(.*)/.exec(reply);
  if (!m) return null;
  const action = m[1].trim().toLowerCase().split('\n')[0];
  if (choices.length === 0 || choices.includes(action)) return action;
  try {
    const scores = choices.map((c) => bleu(c, action));
    let best = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i] > scores[best]) best = i;
    if (scores[best] > 0.01) return choices[best];
  } catch {
    // process_action: an exception is printed and the action kept (sentence_bleu raises on none of these inputs).
  }
  return action;
}

/** Evalalfworld.parseAction (AgentBoard). */
export function agentboardAction(text: string): string {
  let action = text.trim();
  if (action.includes('put')) {
    if (action.includes(' in ')) action = action.split(' in ').join(' in/on ');
    else if (action.includes(' on ')) action = action.split(' on ').join(' in/on ');
  }
  if (action.endsWith('.')) action = action.slice(0, -1).trim();
  return action;
}

