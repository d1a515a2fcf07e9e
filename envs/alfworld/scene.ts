/**
 * What the visual view draws, from the state, showing no more than the text has shown: the
 * receptacles (all are named in the welcome text), what is in or on each one whose contents were
 * shown, open/closed for those that open, where you are, what you hold, the states of things
 * (hot, cold, clean, sliced, on), and the goal.
 */
import { GAMES, worldOf } from './games.ts';
import type { AlfState } from './index.ts';
import { pyCompare } from '../pddl/text.ts';

export interface SceneThing {
  name: string;
  /** "hot", "cold", "clean", "sliced", "on". */
  states: string[];
}

export interface SceneReceptacle {
  name: string;
  /** null when it does not open. */
  open: boolean | null;
  /** Its contents were shown (arriving, opening or examining). */
  seen: boolean;
  /** What is in or on it, when seen. */
  contents: SceneThing[];
  /** You are at it. */
  here: boolean;
}

export interface Scene {
  goal: string;
  receptacles: SceneReceptacle[];
  holding: SceneThing[];
  won: boolean;
}

const byNumber = (a: string, b: string) => {
  const [na, ia] = a.split(' ');
  const [nb, ib] = b.split(' ');
  return pyCompare(na, nb) || Number(ia) - Number(ib);
};

export function sceneOf(state: AlfState): Scene {
  const world = worldOf(state.game, state.wording);
  const facts = new Set(state.world.facts);
  const args = (pred: string) => state.world.facts.filter((f) => f.startsWith(pred + ' ')).map((f) => f.split(' ').slice(1));
  const nameOf = (id: string) => world.entities.get(id)?.name ?? id;
  const thing = (id: string): SceneThing => {
    const states: string[] = [];
    if (facts.has(`ishot ${id}`)) states.push('hot');
    if (facts.has(`iscool ${id}`)) states.push('cold');
    if (facts.has(`isclean ${id}`)) states.push('clean');
    if (facts.has(`issliced ${id}`)) states.push('sliced');
    if (facts.has(`istoggled ${id}`)) states.push('on');
    return { name: nameOf(id), states };
  };
  const here = new Set(args('atlocation').map(([, l]) => l));
  const seen = new Set(state.seen);
  const receptacles: SceneReceptacle[] = args('receptacleatlocation').map(([r, l]) => {
    const name = nameOf(r);
    const open = facts.has(`openable ${r}`) ? facts.has(`opened ${r}`) : null;
    const contents = args('inreceptacle')
      .filter(([, rr]) => rr === r)
      .map(([o]) => thing(o))
      .sort((a, b) => byNumber(a.name, b.name));
    return { name, open, seen: seen.has(name), contents: seen.has(name) && open !== false ? contents : [], here: here.has(l) };
  });
  receptacles.sort((a, b) => byNumber(a.name, b.name));
  const holding = args('holds').map(([, o]) => thing(o));
  return { goal: GAMES[state.game].task.replace(/^Your task is to: /, ''), receptacles, holding, won: state.won };
}
