/**
 * BabyAI's instruction verifier (BEHAVIOUR.md §5.4): which objects an instruction
 * tracks, and the success / failure / continue check after every low-level action.
 * Sub-verifiers keep state (pickup's previously-carried object, the sequence
 * flags), so `verify` works on a copy of the tree and returns the new one.
 */
import { DIR_TO_VEC, type Color, type ObjType, type WorldObj } from './objects.ts';
import { getCell, posInside, roomOf, type Grid, type RoomLayout } from './grid.ts';

export type Loc = 'left' | 'right' | 'front' | 'behind';
export type Status = 'success' | 'failure' | 'continue';

/** An object description as written in the mission ("the red ball on your left"). */
export interface DescSpec {
  type: ObjType | null;
  color: Color | null;
  loc: Loc | null;
}

/** The instruction tree (what layouts.jsonl's `instr` holds, without the positions). */
export type InstrSpec =
  | { op: 'goto'; desc: DescSpec }
  | { op: 'open'; strict: boolean; desc: DescSpec }
  | { op: 'pickup'; strict: boolean; desc: DescSpec }
  | { op: 'putnext'; strict: boolean; move: DescSpec; fixed: DescSpec }
  | { op: 'before' | 'after' | 'and'; strict: boolean; a: InstrSpec; b: InstrSpec };

/** Tracked objects of a description: their ids, and their positions as last refreshed. */
export interface Tracked {
  objs: number[];
  poss: [number, number][];
}

export type VerifierNode =
  | { op: 'goto'; desc: Tracked }
  | { op: 'open'; strict: boolean; desc: Tracked }
  | { op: 'pickup'; strict: boolean; desc: Tracked; preCarrying: number | null }
  | { op: 'putnext'; strict: boolean; move: Tracked; fixed: Tracked; preCarrying: number | null }
  | { op: 'before' | 'after' | 'and'; strict: boolean; a: VerifierNode; b: VerifierNode; aDone: Status | null; bDone: Status | null };

/** What the verifier looks at after a step. */
export interface VerifyView {
  grid: Grid;
  front: [number, number];
  carrying: WorldObj | null;
}

/**
 * find_matching_objs with location: every object matching type and colour, scanning
 * x then y; a location restricts to the agent's start room and the side relative to
 * the agent's start pose.
 */
export function findMatching(desc: DescSpec, grid: Grid, rooms: RoomLayout, agentPos: [number, number], agentDir: number): Tracked {
  const objs: number[] = [];
  const poss: [number, number][] = [];
  const room = roomOf(rooms, agentPos[0], agentPos[1]);
  const [d1x, d1y] = DIR_TO_VEC[agentDir];
  const d2x = -d1y;
  const d2y = d1x;
  for (let i = 0; i < grid.width; i++) {
    for (let j = 0; j < grid.height; j++) {
      const cell = getCell(grid, i, j);
      if (!cell) continue;
      if (desc.type !== null && cell.type !== desc.type) continue;
      if (desc.color !== null && cell.color !== desc.color) continue;
      if (desc.loc !== null) {
        if (!posInside(room, i, j)) continue;
        const vx = i - agentPos[0];
        const vy = j - agentPos[1];
        const along = vx * d1x + vy * d1y;
        const side = vx * d2x + vy * d2y;
        const ok = desc.loc === 'left' ? side < 0 : desc.loc === 'right' ? side > 0 : desc.loc === 'front' ? along > 0 : along < 0;
        if (!ok) continue;
      }
      objs.push(cell.id);
      poss.push([i, j]);
    }
  }
  const tracked = { objs, poss };
  positionsOn.set(tracked, grid);
  return tracked;
}

/** The verifier tree right after reset. */
export function initVerifier(spec: InstrSpec, grid: Grid, rooms: RoomLayout, agentPos: [number, number], agentDir: number): VerifierNode {
  const find = (d: DescSpec) => findMatching(d, grid, rooms, agentPos, agentDir);
  switch (spec.op) {
    case 'goto':
      return { op: 'goto', desc: find(spec.desc) };
    case 'open':
      return { op: 'open', strict: spec.strict, desc: find(spec.desc) };
    case 'pickup':
      return { op: 'pickup', strict: spec.strict, desc: find(spec.desc), preCarrying: null };
    case 'putnext':
      return { op: 'putnext', strict: spec.strict, move: find(spec.move), fixed: find(spec.fixed), preCarrying: null };
    default:
      return {
        op: spec.op,
        strict: spec.strict,
        a: initVerifier(spec.a, grid, rooms, agentPos, agentDir),
        b: initVerifier(spec.b, grid, rooms, agentPos, agentDir),
        aDone: null,
        bDone: null,
      };
  }
}

/**
 * A copy of the parts `verifyNode` writes. Goto and open nodes are never written: shared. Each
 * kind is built as its own literal, not spread: a spread over the union's shapes is slow.
 */
function cloneNode(n: VerifierNode): VerifierNode {
  switch (n.op) {
    case 'goto':
    case 'open':
      return n;
    case 'pickup':
      return { op: 'pickup', strict: n.strict, desc: n.desc, preCarrying: n.preCarrying };
    case 'putnext':
      return { op: 'putnext', strict: n.strict, move: n.move, fixed: n.fixed, preCarrying: n.preCarrying };
    default:
      return { op: n.op, strict: n.strict, a: cloneNode(n.a), b: cloneNode(n.b), aDone: n.aDone, bDone: n.bDone };
  }
}

/** Positions of tracked objects still on the grid (what a drop action refreshes). */
function refreshTracked(t: Tracked, grid: Grid): Tracked {
  // Grids are immutable: positions found on this very grid are still right (a drop that dropped nothing).
  if (positionsOn.get(t) === grid) return t;
  const poss: [number, number][] = [];
  const out = { objs: t.objs, poss };
  positionsOn.set(out, grid);
  if (t.objs.length === 0) return out;
  const { cells, width, height } = grid;
  // Scanned x then y, as upstream's grid loop.
  for (let i = 0; i < width; i++) {
    for (let j = 0; j < height; j++) {
      const cell = cells[j * width + i];
      if (cell && t.objs.includes(cell.id)) poss.push([i, j]);
    }
  }
  return out;
}

/** The grid each tracked set's positions were found on (kept beside it: verifier states are compared as JSON). */
const positionsOn = new WeakMap<Tracked, Grid>();

/** update_objs_poss: after a drop action, every description's positions are recomputed. */
export function refreshPositions(n: VerifierNode, grid: Grid): VerifierNode {
  // A node whose positions did not change is kept as it is.
  switch (n.op) {
    case 'goto': {
      const desc = refreshTracked(n.desc, grid);
      return desc === n.desc ? n : { op: 'goto', desc };
    }
    case 'open': {
      const desc = refreshTracked(n.desc, grid);
      return desc === n.desc ? n : { op: 'open', strict: n.strict, desc };
    }
    case 'pickup': {
      const desc = refreshTracked(n.desc, grid);
      return desc === n.desc ? n : { op: 'pickup', strict: n.strict, desc, preCarrying: n.preCarrying };
    }
    case 'putnext': {
      const move = refreshTracked(n.move, grid);
      const fixed = refreshTracked(n.fixed, grid);
      return move === n.move && fixed === n.fixed ? n : { op: 'putnext', strict: n.strict, move, fixed, preCarrying: n.preCarrying };
    }
    default: {
      const a = refreshPositions(n.a, grid);
      const b = refreshPositions(n.b, grid);
      return a === n.a && b === n.b ? n : { op: n.op, strict: n.strict, a, b, aDone: n.aDone, bDone: n.bDone };
    }
  }
}

const TOGGLE = 5;
const PICKUP = 3;
const DROP = 4;

function nextTo(a: [number, number], b: [number, number]): boolean {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
}

/** Verify one node in place (the caller owns the copy). */
function verifyNode(n: VerifierNode, v: VerifyView, action: number): Status {
  switch (n.op) {
    case 'goto':
      return n.desc.poss.some(([x, y]) => x === v.front[0] && y === v.front[1]) ? 'success' : 'continue';
    case 'open': {
      if (action !== TOGGLE) return 'continue';
      const front = getCell(v.grid, v.front[0], v.front[1]);
      if (front && front.type === 'door' && front.state === 'open' && n.desc.objs.includes(front.id)) return 'success';
      if (n.strict && front && front.type === 'door') return 'failure';
      return 'continue';
    }
    case 'pickup': {
      const pre = n.preCarrying;
      n.preCarrying = v.carrying ? v.carrying.id : null;
      if (action !== PICKUP) return 'continue';
      if (pre === null && v.carrying && n.desc.objs.includes(v.carrying.id)) return 'success';
      if (n.strict && v.carrying) return 'failure';
      return 'continue';
    }
    case 'putnext': {
      const pre = n.preCarrying;
      n.preCarrying = v.carrying ? v.carrying.id : null;
      if (n.strict && action === PICKUP && v.carrying) return 'failure';
      if (action !== DROP) return 'continue';
      // The dropped object is where it landed only when the drop happened (front cell was free).
      if (pre !== null && n.move.objs.includes(pre) && v.carrying === null) {
        if (n.fixed.poss.some((p) => nextTo(v.front, p))) return 'success';
      }
      return 'continue';
    }
    case 'before':
    case 'after': {
      // "before": a then b; "after": b then a.
      const first = n.op === 'before' ? 'a' : 'b';
      const second = n.op === 'before' ? 'b' : 'a';
      const firstDone = first === 'a' ? 'aDone' : 'bDone';
      const secondDone = second === 'a' ? 'aDone' : 'bDone';
      if (n[firstDone] === 'success') {
        n[secondDone] = verifyNode(n[second], v, action);
        if (n[secondDone] === 'failure') return 'failure';
        if (n[secondDone] === 'success') return 'success';
      } else {
        n[firstDone] = verifyNode(n[first], v, action);
        if (n[firstDone] === 'failure') return 'failure';
        if (n[firstDone] === 'success') return verifyNode(n, v, action);
        if (n.strict && verifyNode(n[second], v, action) === 'success') return 'failure';
      }
      return 'continue';
    }
    case 'and': {
      if (n.aDone !== 'success') n.aDone = verifyNode(n.a, v, action);
      if (n.bDone !== 'success') n.bDone = verifyNode(n.b, v, action);
      return n.aDone === 'success' && n.bDone === 'success' ? 'success' : 'continue';
    }
  }
}

/** Check the instruction after a low-level action; returns the status and the new verifier state. */
export function verify(node: VerifierNode, v: VerifyView, action: number): { status: Status; node: VerifierNode } {
  const copy = cloneNode(node);
  const status = verifyNode(copy, v, action);
  return { status, node: copy };
}
