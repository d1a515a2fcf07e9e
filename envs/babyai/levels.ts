/**
 * BabyAI level generation from (level, seed), drawing from numpy's generator in the
 * same order as minigrid 2.3.0 (BEHAVIOUR.md §5.1, §5.5): the RoomGrid layout
 * (rooms, door positions, doors, objects, agent placement with rejection), the
 * 28 level recipes AgentBoard uses, instruction surfaces ("go to the red ball",
 * "open a door behind you", "A, then B", "A after you B") and max_steps.
 * A RejectSampling / RecursionError during generation restarts it with the same
 * random stream continuing, as BabyAI does.
 */
import { NumpyRandom } from './numpy-random.ts';
import { COLOR_NAMES, DIR_TO_VEC, ObjFactory, withDoorState, type Color, type WorldObj } from './objects.ts';
import type { Grid } from './grid.ts';
import { findMatching, initVerifier, type DescSpec, type InstrSpec, type Loc } from './verifier.ts';
import type { World } from './step.ts';

/**
 * Thrown to restart generation, as upstream does: control flow, caught below. Built without a
 * stack trace (V8's Error.stackTraceLimit), which costs more than generating a level.
 */
class Restart extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
class RejectSampling extends Restart {}
class GenerationTimeout extends Restart {}

type Pos = [number, number];
const LOC_NAMES: readonly Loc[] = ['left', 'right', 'front', 'behind'];
const OBJ_TYPES = ['box', 'ball', 'key', 'door'] as const;
const OBJ_TYPES_NOT_DOOR = ['box', 'ball', 'key'] as const;
type Kind = 'key' | 'ball' | 'box';

interface Room {
  top: Pos;
  size: Pos;
  /** right, down, left, up: a door, true for a removed wall, or null. */
  doors: (WorldObj | true | null)[];
  doorPos: (Pos | null)[];
  neighbors: (Room | null)[];
  locked: boolean;
  objs: WorldObj[];
}

/** A recording hook for tests: every draw as ['i' | 'u', low, high, result]. */
export type DrawLog = [string, number, number, number][];

/** The generator's working state (mutable while a level is built). */
export class RoomGridBuilder {
  readonly width: number;
  readonly height: number;
  cells: (WorldObj | null)[] = [];
  rooms: Room[][] = [];
  agentPos: Pos = [-1, -1];
  agentDir = 0;
  make = new ObjFactory();

  constructor(
    readonly rng: NumpyRandom,
    readonly roomSize: number,
    readonly numRows: number,
    readonly numCols: number,
    private readonly log?: DrawLog,
  ) {
    this.width = (roomSize - 1) * numCols + 1;
    this.height = (roomSize - 1) * numRows + 1;
  }

  // ---- random helpers (minigrid's _rand_*) ----
  randInt(low: number, high: number): number {
    const v = this.rng.integers(low, high);
    this.log?.push(['i', low, high, v]);
    return v;
  }
  randFloat(low: number, high: number): number {
    const v = this.rng.uniform(low, high);
    this.log?.push(['u', low, high, v]);
    return v;
  }
  randElem<T>(list: readonly T[]): T {
    return list[this.randInt(0, list.length)];
  }
  randSubset<T>(list: readonly T[], n: number): T[] {
    const rest = [...list];
    const out: T[] = [];
    while (out.length < n) {
      const e = this.randElem(rest);
      rest.splice(rest.indexOf(e), 1);
      out.push(e);
    }
    return out;
  }
  randBool(): boolean {
    return this.randInt(0, 2) === 0;
  }
  randColor(): Color {
    return this.randElem(COLOR_NAMES);
  }

  // ---- grid ----
  get(x: number, y: number): WorldObj | null {
    return this.cells[y * this.width + x] ?? null;
  }
  set(x: number, y: number, o: WorldObj | null): void {
    this.cells[y * this.width + x] = o;
  }
  grid(): Grid {
    return { width: this.width, height: this.height, cells: this.cells.slice() };
  }
  private wallRect(x: number, y: number, w: number, h: number): void {
    for (let i = 0; i < w; i++) {
      this.set(x + i, y, this.make.make('wall', 'grey'));
      this.set(x + i, y + h - 1, this.make.make('wall', 'grey'));
    }
    for (let j = 0; j < h; j++) {
      this.set(x, y + j, this.make.make('wall', 'grey'));
      this.set(x + w - 1, y + j, this.make.make('wall', 'grey'));
    }
  }

  /** RoomGrid's layout: walls of every room, door positions (one draw per shared wall), agent in the middle facing east. */
  layRooms(): void {
    this.make = new ObjFactory();
    this.cells = new Array<WorldObj | null>(this.width * this.height).fill(null);
    const s = this.roomSize;
    this.rooms = [];
    for (let j = 0; j < this.numRows; j++) {
      const row: Room[] = [];
      for (let i = 0; i < this.numCols; i++) {
        const room: Room = {
          top: [i * (s - 1), j * (s - 1)],
          size: [s, s],
          doors: [null, null, null, null],
          doorPos: [null, null, null, null],
          neighbors: [null, null, null, null],
          locked: false,
          objs: [],
        };
        row.push(room);
        this.wallRect(room.top[0], room.top[1], s, s);
      }
      this.rooms.push(row);
    }
    for (let j = 0; j < this.numRows; j++) {
      for (let i = 0; i < this.numCols; i++) {
        const room = this.rooms[j][i];
        const [xl, yl] = [room.top[0] + 1, room.top[1] + 1];
        const [xm, ym] = [room.top[0] + s - 1, room.top[1] + s - 1];
        if (i < this.numCols - 1) {
          room.neighbors[0] = this.rooms[j][i + 1];
          room.doorPos[0] = [xm, this.randInt(yl, ym)];
        }
        if (j < this.numRows - 1) {
          room.neighbors[1] = this.rooms[j + 1][i];
          room.doorPos[1] = [this.randInt(xl, xm), ym];
        }
        if (i > 0) {
          room.neighbors[2] = this.rooms[j][i - 1];
          room.doorPos[2] = room.neighbors[2].doorPos[0];
        }
        if (j > 0) {
          room.neighbors[3] = this.rooms[j - 1][i];
          room.doorPos[3] = room.neighbors[3].doorPos[1];
        }
      }
    }
    this.agentPos = [(this.numCols >> 1) * (s - 1) + (s >> 1), (this.numRows >> 1) * (s - 1) + (s >> 1)];
    this.agentDir = 0;
  }

  getRoom(i: number, j: number): Room {
    return this.rooms[j][i];
  }
  roomFromPos(x: number, y: number): Room {
    return this.rooms[Math.floor(y / (this.roomSize - 1))][Math.floor(x / (this.roomSize - 1))];
  }
  frontPos(): Pos {
    const [dx, dy] = DIR_TO_VEC[this.agentDir];
    return [this.agentPos[0] + dx, this.agentPos[1] + dy];
  }

  /** place_obj: random cells of the rectangle until one is free, not the agent's and not rejected. */
  placeObj(obj: WorldObj | null, top: Pos, size: Pos, reject?: (p: Pos) => boolean, maxTries = Infinity): Pos {
    const tx = Math.max(top[0], 0);
    const ty = Math.max(top[1], 0);
    let tries = 0;
    for (;;) {
      if (tries > maxTries) throw new GenerationTimeout('rejection sampling failed in place_obj');
      tries++;
      const p: Pos = [this.randInt(tx, Math.min(tx + size[0], this.width)), this.randInt(ty, Math.min(ty + size[1], this.height))];
      if (this.get(p[0], p[1]) !== null) continue;
      if (p[0] === this.agentPos[0] && p[1] === this.agentPos[1]) continue;
      if (reject && reject(p)) continue;
      if (obj) this.set(p[0], p[1], obj);
      return p;
    }
  }

  /** RoomGrid.place_agent: a random cell of the room (default: random room), redrawn while the cell ahead holds a non-wall object. */
  placeAgent(i?: number, j?: number, randDir = true): Pos {
    const ii = i ?? this.randInt(0, this.numCols);
    const jj = j ?? this.randInt(0, this.numRows);
    const room = this.rooms[jj][ii];
    for (;;) {
      this.agentPos = [-1, -1];
      this.agentPos = this.placeObj(null, room.top, room.size, undefined, 1000);
      if (randDir) this.agentDir = this.randInt(0, 4);
      const [fx, fy] = this.frontPos();
      const front = this.get(fx, fy);
      if (front === null || front.type === 'wall') break;
    }
    return this.agentPos;
  }

  placeInRoom(i: number, j: number, obj: WorldObj): Pos {
    const room = this.getRoom(i, j);
    const pos = this.placeObj(obj, room.top, room.size, (p) => Math.abs(this.agentPos[0] - p[0]) + Math.abs(this.agentPos[1] - p[1]) < 2, 1000);
    room.objs.push(obj);
    return pos;
  }

  addObject(i: number, j: number, kind?: Kind, color?: Color): { obj: WorldObj; pos: Pos } {
    const k = kind ?? this.randElem<Kind>(['key', 'ball', 'box']);
    const c = color ?? this.randColor();
    const obj = this.make.make(k, c);
    return { obj, pos: this.placeInRoom(i, j, obj) };
  }

  addDoor(i: number, j: number, doorIdx?: number, color?: Color, locked?: boolean): { door: WorldObj; pos: Pos } {
    const room = this.getRoom(i, j);
    let idx = doorIdx;
    if (idx === undefined) {
      for (;;) {
        idx = this.randInt(0, 4);
        if (room.neighbors[idx] && room.doors[idx] === null) break;
      }
    }
    const c = color ?? this.randColor();
    const isLocked = locked ?? this.randBool();
    if (room.doors[idx!] !== null) throw new Error('door already exists');
    room.locked = isLocked;
    const door = this.make.make('door', c, isLocked ? 'locked' : 'closed');
    const pos = room.doorPos[idx!]!;
    this.set(pos[0], pos[1], door);
    room.doors[idx!] = door;
    room.neighbors[idx!]!.doors[(idx! + 2) % 4] = door;
    return { door, pos };
  }

  removeWall(i: number, j: number, idx: number): void {
    const room = this.getRoom(i, j);
    const [tx, ty] = room.top;
    const [w, h] = room.size;
    if (idx === 0) for (let k = 1; k < h - 1; k++) this.set(tx + w - 1, ty + k, null);
    else if (idx === 1) for (let k = 1; k < w - 1; k++) this.set(tx + k, ty + h - 1, null);
    else if (idx === 2) for (let k = 1; k < h - 1; k++) this.set(tx, ty + k, null);
    else for (let k = 1; k < w - 1; k++) this.set(tx + k, ty, null);
    room.doors[idx] = true;
    room.neighbors[idx]!.doors[(idx + 2) % 4] = true;
  }

  /** connect_all: random unlocked doors until every room is reachable from the agent's. */
  connectAll(doorColors: readonly Color[] = COLOR_NAMES, maxItrs = 5000): WorldObj[] {
    const start = this.roomFromPos(this.agentPos[0], this.agentPos[1]);
    const added: WorldObj[] = [];
    const reach = (): number => {
      const seen = new Set<Room>();
      const stack = [start];
      while (stack.length > 0) {
        const r = stack.pop()!;
        if (seen.has(r)) continue;
        seen.add(r);
        for (let k = 0; k < 4; k++) if (r.doors[k]) stack.push(r.neighbors[k]!);
      }
      return seen.size;
    };
    let itrs = 0;
    for (;;) {
      if (itrs > maxItrs) throw new GenerationTimeout('connect_all failed');
      itrs++;
      if (reach() === this.numRows * this.numCols) break;
      const i = this.randInt(0, this.numCols);
      const j = this.randInt(0, this.numRows);
      const k = this.randInt(0, 4);
      const room = this.getRoom(i, j);
      if (!room.doorPos[k] || room.doors[k]) continue;
      if (room.locked || room.neighbors[k]!.locked) continue;
      const color = this.randElem(doorColors);
      added.push(this.addDoor(i, j, k, color, false).door);
    }
    return added;
  }

  addDistractors(i: number | undefined, j: number | undefined, num = 10, allUnique = true): WorldObj[] {
    const existing: string[] = [];
    for (const row of this.rooms) for (const room of row) for (const o of room.objs) existing.push(`${o.type} ${o.color}`);
    const dists: WorldObj[] = [];
    while (dists.length < num) {
      const color = this.randElem(COLOR_NAMES);
      const type = this.randElem<Kind>(['key', 'ball', 'box']);
      if (allUnique && existing.includes(`${type} ${color}`)) continue;
      const ri = i ?? this.randInt(0, this.numCols);
      const rj = j ?? this.randInt(0, this.numRows);
      const { obj } = this.addObject(ri, rj, type, color);
      existing.push(`${type} ${color}`);
      dists.push(obj);
    }
    return dists;
  }

  /** Whether every non-wall object can be reached from the agent without moving anything (doors pass). */
  checkObjsReachable(raise = true): boolean {
    // A flood fill from the agent through empty cells and doors (cells as indices: it runs at every reset).
    const { width, height } = this;
    const reached = new Uint8Array(width * height);
    const stack: number[] = [];
    const visit = (x: number, y: number) => {
      if (x >= 0 && y >= 0 && x < width && y < height) stack.push(y * width + x);
    };
    visit(this.agentPos[0], this.agentPos[1]);
    while (stack.length > 0) {
      const key = stack.pop()!;
      if (reached[key]) continue;
      reached[key] = 1;
      const c = this.cells[key];
      if (c && c.type !== 'door') continue;
      const x = key % width;
      const y = (key - x) / width;
      visit(x + 1, y);
      visit(x - 1, y);
      visit(x, y + 1);
      visit(x, y - 1);
    }
    for (let n = 0; n < this.cells.length; n++) {
      const c = this.cells[n];
      if (!c || c.type === 'wall') continue;
      if (!reached[n]) {
        if (!raise) return false;
        throw new RejectSampling('unreachable object');
      }
    }
    return true;
  }

  openAllDoors(): void {
    for (const row of this.rooms) {
      for (const room of row) {
        room.doors.forEach((d, k) => {
          if (d && d !== true) {
            const [x, y] = room.doorPos[k]!;
            const cur = this.get(x, y);
            if (cur && cur.type === 'door') this.set(x, y, withDoorState(cur, 'open'));
          }
        });
      }
    }
  }

  matching(desc: DescSpec) {
    return findMatching(desc, this.grid(), this, this.agentPos, this.agentDir);
  }
}

const desc = (type: DescSpec['type'], color: Color | null = null, loc: Loc | null = null): DescSpec => ({ type, color, loc });
const goto = (d: DescSpec): InstrSpec => ({ op: 'goto', desc: d });
const open = (d: DescSpec, strict = false): InstrSpec => ({ op: 'open', strict, desc: d });
const pickup = (d: DescSpec, strict = false): InstrSpec => ({ op: 'pickup', strict, desc: d });
const descOf = (o: WorldObj): DescSpec => desc(o.type, o.color);

function allDoors(b: RoomGridBuilder): WorldObj[] {
  const out: WorldObj[] = [];
  for (let i = 0; i < b.numCols; i++) {
    for (let j = 0; j < b.numRows; j++) {
      for (const d of b.getRoom(i, j).doors) if (d && d !== true) out.push(d);
    }
  }
  return out;
}

/** BabyAI's LevelGen (random instructions from the baby language), as GoToSeq and PickupLoc configure it. */
interface LevelGenConfig {
  numDists: number;
  lockedRoomProb: number;
  locations: boolean;
  unblocking: boolean;
  actionKinds: readonly ('goto' | 'pickup' | 'open' | 'putnext')[];
  instrKinds: readonly ('action' | 'and' | 'seq')[];
}

function levelGen(cfg: LevelGenConfig) {
  return (b: RoomGridBuilder): InstrSpec => {
    let lockedRoom: Room | null = null;
    if (b.randFloat(0, 1) < cfg.lockedRoomProb) {
      let doorColor: Color;
      for (;;) {
        const i = b.randInt(0, b.numCols);
        const j = b.randInt(0, b.numRows);
        const k = b.randInt(0, 4);
        lockedRoom = b.getRoom(i, j);
        if (lockedRoom.neighbors[k] === null) continue;
        doorColor = b.addDoor(i, j, k, undefined, true).door.color;
        break;
      }
      for (;;) {
        const i = b.randInt(0, b.numCols);
        const j = b.randInt(0, b.numRows);
        if (b.getRoom(i, j) === lockedRoom) continue;
        b.addObject(i, j, 'key', doorColor);
        break;
      }
    }
    b.connectAll();
    b.addDistractors(undefined, undefined, cfg.numDists, false);
    for (;;) {
      b.placeAgent();
      if (b.roomFromPos(b.agentPos[0], b.agentPos[1]) !== lockedRoom) break;
    }
    if (!cfg.unblocking) b.checkObjsReachable();

    const randObj = (types: readonly string[]): DescSpec => {
      for (let tries = 0; ; ) {
        if (tries > 100) throw new GenerationTimeout('failed to find suitable object');
        tries++;
        const color = b.randElem<Color | null>([null, ...COLOR_NAMES]);
        const type = b.randElem(types) as DescSpec['type'];
        let loc: Loc | null = null;
        if (cfg.locations && b.randBool()) loc = b.randElem(LOC_NAMES);
        const d = desc(type, color, loc);
        if (b.matching(d).objs.length === 0) continue;
        return d;
      }
    };
    const randInstr = (kinds: readonly ('action' | 'and' | 'seq')[]): InstrSpec => {
      const kind = b.randElem(kinds);
      if (kind === 'action') {
        const action = b.randElem(cfg.actionKinds);
        if (action === 'goto') return goto(randObj(OBJ_TYPES));
        if (action === 'pickup') return pickup(randObj(OBJ_TYPES_NOT_DOOR));
        if (action === 'open') return open(randObj(['door']));
        const move = randObj(OBJ_TYPES_NOT_DOOR);
        return { op: 'putnext', strict: false, move, fixed: randObj(OBJ_TYPES) };
      }
      if (kind === 'and') return { op: 'and', strict: false, a: randInstr(['action']), b: randInstr(['action']) };
      const a = randInstr(['action', 'and']);
      const c = randInstr(['action', 'and']);
      return { op: b.randElem(['before', 'after'] as const), strict: false, a, b: c };
    };
    const instr = randInstr(cfg.instrKinds);
    validate(b, instr, cfg.unblocking);
    return instr;
  };
}

/** validate_instrs: put-next sanity, and (with unblocking) no keys matching a locked door's colour. */
function validate(b: RoomGridBuilder, instr: InstrSpec, unblocking: boolean): void {
  const lockedColors: Color[] = [];
  if (unblocking) for (const d of allDoors(b)) if (d.state === 'locked') lockedColors.push(d.color);
  const visit = (n: InstrSpec): void => {
    if (n.op === 'before' || n.op === 'after' || n.op === 'and') {
      visit(n.a);
      visit(n.b);
      return;
    }
    if (n.op === 'putnext') {
      const m = b.matching(n.move);
      const f = b.matching(n.fixed);
      if (m.objs.some((id) => f.objs.includes(id))) throw new RejectSampling('objects match both sides of PutNext');
      if (m.poss.some((p) => f.poss.some((q) => Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) === 1))) throw new RejectSampling('already next to each other');
    }
    if (!unblocking) return;
    const descs: DescSpec[] = n.op === 'putnext' ? [n.move, n.fixed] : 'desc' in n ? [n.desc] : [];
    for (const d of descs) {
      if (d.type === 'key' && d.color !== null && lockedColors.includes(d.color)) throw new RejectSampling('key of a locked door');
    }
  };
  visit(instr);
}

interface LevelDef {
  roomSize: number;
  numRows: number;
  numCols: number;
  /** A fixed step limit; otherwise num_navs × room_size² × rows × cols. */
  maxSteps?: number;
  gen(b: RoomGridBuilder): InstrSpec;
}

function goToRedBall(numDists: number, grey: boolean) {
  return (b: RoomGridBuilder): InstrSpec => {
    b.placeAgent();
    const { obj } = b.addObject(0, 0, 'ball', 'red');
    const dists = b.addDistractors(undefined, undefined, numDists, false);
    if (grey) {
      for (const d of dists) {
        const grey: WorldObj = { ...d, color: 'grey' };
        const n = b.cells.indexOf(d);
        if (n >= 0) b.cells[n] = grey;
        for (const row of b.rooms) for (const room of row) room.objs = room.objs.map((o) => (o === d ? grey : o));
      }
    }
    b.checkObjsReachable();
    return goto(descOf(obj));
  };
}

/**
 * GoToImpUnlock / Unlock: a locked door on a random room, its key, connections, distractors, the agent.
 * Upstream compares room indices with `is`, and numpy's integers are never the same objects as
 * Python's, so the "key in another room" test never rejects and the "all but the locked room"
 * distractor loop covers every room; reproduced here.
 */
function lockedRoomSetup(b: RoomGridBuilder, connect: () => void, perRoom: number) {
  const id = b.randInt(0, b.numCols);
  const jd = b.randInt(0, b.numRows);
  const { door } = b.addDoor(id, jd, undefined, undefined, true);
  const lockedRoom = b.getRoom(id, jd);
  const ik = b.randInt(0, b.numCols);
  const jk = b.randInt(0, b.numRows);
  b.addObject(ik, jk, 'key', door.color);
  connect();
  for (let i = 0; i < b.numCols; i++) for (let j = 0; j < b.numRows; j++) b.addDistractors(i, j, perRoom, false);
  for (;;) {
    b.placeAgent();
    if (b.roomFromPos(b.agentPos[0], b.agentPos[1]) !== lockedRoom) break;
  }
  b.checkObjsReachable();
  return { door, id, jd };
}

export const LEVELS: Readonly<Record<string, LevelDef>> = {
  'BabyAI-GoToRedBallGrey-v0': { roomSize: 8, numRows: 1, numCols: 1, gen: goToRedBall(7, true) },
  'BabyAI-GoToRedBall-v0': { roomSize: 8, numRows: 1, numCols: 1, gen: goToRedBall(7, false) },
  'BabyAI-GoToRedBallNoDists-v0': { roomSize: 8, numRows: 1, numCols: 1, gen: goToRedBall(0, false) },
  'BabyAI-GoToObjS6-v0': {
    // minigrid 2.3.0 registers this id with room_size 4.
    roomSize: 4,
    numRows: 1,
    numCols: 1,
    gen(b) {
      b.placeAgent();
      const [obj] = b.addDistractors(undefined, undefined, 1);
      return goto(descOf(obj));
    },
  },
  'BabyAI-GoToLocalS8N7-v0': {
    roomSize: 8,
    numRows: 1,
    numCols: 1,
    gen(b) {
      b.placeAgent();
      const objs = b.addDistractors(undefined, undefined, 7, false);
      b.checkObjsReachable();
      return goto(descOf(b.randElem(objs)));
    },
  },
  'BabyAI-GoToObjMazeS7-v0': {
    roomSize: 7,
    numRows: 3,
    numCols: 3,
    gen(b) {
      b.placeAgent();
      b.connectAll();
      const objs = b.addDistractors(undefined, undefined, 1, false);
      b.checkObjsReachable();
      return goto(descOf(b.randElem(objs)));
    },
  },
  'BabyAI-GoToImpUnlock-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      const { id, jd } = lockedRoomSetup(b, () => b.connectAll(), 2);
      const [obj] = b.addDistractors(id, jd, 1, false);
      return goto(descOf(obj));
    },
  },
  'BabyAI-GoToSeqS5R2-v0': {
    roomSize: 5,
    numRows: 2,
    numCols: 2,
    gen: levelGen({ numDists: 4, lockedRoomProb: 0, locations: false, unblocking: false, actionKinds: ['goto'], instrKinds: ['action', 'and', 'seq'] }),
  },
  'BabyAI-GoToRedBlueBall-v0': {
    roomSize: 8,
    numRows: 1,
    numCols: 1,
    gen(b) {
      b.placeAgent();
      const dists = b.addDistractors(undefined, undefined, 7, false);
      for (const d of dists) if (d.type === 'ball' && (d.color === 'blue' || d.color === 'red')) throw new RejectSampling('one blue or red ball only');
      const color = b.randElem<Color>(['red', 'blue']);
      const { obj } = b.addObject(0, 0, 'ball', color);
      b.checkObjsReachable();
      return goto(descOf(obj));
    },
  },
  'BabyAI-GoToDoor-v0': {
    roomSize: 7,
    numRows: 3,
    numCols: 3,
    gen(b) {
      const doors: WorldObj[] = [];
      for (let k = 0; k < 4; k++) doors.push(b.addDoor(1, 1).door);
      b.placeAgent(1, 1);
      return goto(desc('door', b.randElem(doors).color));
    },
  },
  'BabyAI-GoToObjDoor-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      b.placeAgent(1, 1);
      const objs = b.addDistractors(1, 1, 8, false);
      for (let k = 0; k < 4; k++) objs.push(b.addDoor(1, 1).door);
      b.checkObjsReachable();
      return goto(descOf(b.randElem(objs)));
    },
  },
  'BabyAI-Open-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      b.placeAgent();
      b.connectAll();
      b.addDistractors(undefined, undefined, 18, false);
      b.checkObjsReachable();
      return open(descOf(b.randElem(allDoors(b))));
    },
  },
  'BabyAI-OpenRedDoor-v0': {
    roomSize: 5,
    numRows: 1,
    numCols: 2,
    gen(b) {
      b.addDoor(0, 0, 0, 'red', false);
      b.placeAgent(0, 0);
      return open(desc('door', 'red'));
    },
  },
  'BabyAI-OpenDoorLoc-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      const colors = b.randSubset(COLOR_NAMES, 4);
      const doors = colors.map((c, k) => b.addDoor(1, 1, k, c, false).door);
      const d = desc(doors[0].type, null, b.randElem(LOC_NAMES));
      b.placeAgent(1, 1);
      return open(d, false);
    },
  },
  'BabyAI-OpenRedBlueDoorsDebug-v0': {
    roomSize: 6,
    numRows: 3,
    numCols: 3,
    maxSteps: 20 * 36,
    gen(b) {
      b.randSubset(COLOR_NAMES, 2); // drawn, then overridden by the fixed red / blue
      const d1 = b.addDoor(1, 1, 2, 'red', false).door;
      const d2 = b.addDoor(1, 1, 0, 'blue', false).door;
      b.placeAgent(1, 1);
      return { op: 'before', strict: false, a: open(descOf(d1), true), b: open(descOf(d2)) };
    },
  },
  'BabyAI-OpenDoorsOrderN4Debug-v0': {
    roomSize: 6,
    numRows: 3,
    numCols: 3,
    maxSteps: 20 * 36,
    gen(b) {
      const colors = b.randSubset(COLOR_NAMES, 4);
      const doors = colors.map((c) => b.addDoor(1, 1, undefined, c, false).door);
      b.placeAgent(1, 1);
      const [d1, d2] = b.randSubset(doors, 2);
      const mode = b.randInt(0, 3);
      if (mode === 0) return open(descOf(d1), true);
      return { op: mode === 1 ? 'before' : 'after', strict: false, a: open(descOf(d1), true), b: open(descOf(d2), true) };
    },
  },
  'BabyAI-Pickup-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      b.placeAgent();
      b.connectAll();
      const objs = b.addDistractors(undefined, undefined, 18, false);
      b.checkObjsReachable();
      return pickup(descOf(b.randElem(objs)));
    },
  },
  'BabyAI-UnblockPickup-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      b.placeAgent();
      b.connectAll();
      const objs = b.addDistractors(undefined, undefined, 20, false);
      if (b.checkObjsReachable(false)) throw new RejectSampling('all objects reachable');
      return pickup(descOf(b.randElem(objs)));
    },
  },
  'BabyAI-PickupLoc-v0': {
    roomSize: 8,
    numRows: 1,
    numCols: 1,
    gen: levelGen({ numDists: 8, lockedRoomProb: 0, locations: true, unblocking: false, actionKinds: ['pickup'], instrKinds: ['action'] }),
  },
  'BabyAI-PickupDistDebug-v0': {
    roomSize: 7,
    numRows: 1,
    numCols: 1,
    gen(b) {
      const objs = b.addDistractors(undefined, undefined, 5);
      b.placeAgent(0, 0);
      const obj = b.randElem(objs);
      const by = b.randElem(['type', 'color', 'both'] as const);
      return pickup(desc(by === 'color' ? null : obj.type, by === 'type' ? null : obj.color), true);
    },
  },
  'BabyAI-PickupAbove-v0': {
    roomSize: 6,
    numRows: 3,
    numCols: 3,
    maxSteps: 8 * 36,
    gen(b) {
      const { obj } = b.addObject(1, 0);
      b.addDoor(1, 1, 3, undefined, false);
      b.placeAgent(1, 1);
      b.connectAll();
      return pickup(descOf(obj));
    },
  },
  'BabyAI-Unlock-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      let door: WorldObj | null = null;
      const { door: d } = lockedRoomSetup(
        b,
        () => {
          // With probability 1/2 the locked door is the only door of its colour.
          const lockedColor = allDoors(b).find((x) => x.state === 'locked')!.color;
          if (b.randBool()) b.connectAll(COLOR_NAMES.filter((c) => c !== lockedColor));
          else b.connectAll();
        },
        3,
      );
      door = d;
      return open(descOf(door));
    },
  },
  'BabyAI-UnlockLocalDist-v0': {
    roomSize: 8,
    numRows: 3,
    numCols: 3,
    gen(b) {
      const { door } = b.addDoor(1, 1, undefined, undefined, true);
      b.addObject(1, 1, 'key', door.color);
      b.addDistractors(1, 1, 3);
      b.placeAgent(1, 1);
      return open(desc('door'));
    },
  },
  'BabyAI-UnlockPickupDist-v0': {
    roomSize: 6,
    numRows: 1,
    numCols: 2,
    gen(b) {
      const { obj } = b.addObject(1, 0, 'box');
      const { door } = b.addDoor(0, 0, 0, undefined, true);
      b.addObject(0, 0, 'key', door.color);
      b.addDistractors(undefined, undefined, 4);
      b.placeAgent(0, 0);
      return pickup(descOf(obj));
    },
  },
  'BabyAI-BlockedUnlockPickup-v0': {
    roomSize: 6,
    numRows: 1,
    numCols: 2,
    maxSteps: 16 * 36,
    gen(b) {
      const { obj } = b.addObject(1, 0, 'box');
      const { door, pos } = b.addDoor(0, 0, 0, undefined, true);
      b.set(pos[0] - 1, pos[1], b.make.make('ball', b.randColor()));
      b.addObject(0, 0, 'key', door.color);
      b.placeAgent(0, 0);
      return pickup(desc(obj.type));
    },
  },
  'BabyAI-UnlockToUnlock-v0': {
    roomSize: 6,
    numRows: 1,
    numCols: 3,
    maxSteps: 30 * 36,
    gen(b) {
      const colors = b.randSubset(COLOR_NAMES, 2);
      b.addDoor(0, 0, 0, colors[0], true);
      b.addObject(2, 0, 'key', colors[0]);
      b.addDoor(1, 0, 0, colors[1], true);
      b.addObject(1, 0, 'key', colors[1]);
      const { obj } = b.addObject(0, 0, 'ball');
      b.placeAgent(1, 0);
      return pickup(desc(obj.type));
    },
  },
  'BabyAI-FindObjS7-v0': {
    roomSize: 7,
    numRows: 3,
    numCols: 3,
    maxSteps: 20 * 49,
    gen(b) {
      const i = b.randInt(0, b.numRows);
      const j = b.randInt(0, b.numCols);
      const { obj } = b.addObject(i, j);
      b.placeAgent(1, 1);
      b.connectAll();
      return pickup(desc(obj.type));
    },
  },
  'BabyAI-KeyCorridorS6R3-v0': {
    roomSize: 6,
    numRows: 3,
    numCols: 3,
    maxSteps: 30 * 36,
    gen(b) {
      for (let j = 1; j < b.numRows; j++) b.removeWall(1, j, 3);
      const roomIdx = b.randInt(0, b.numRows);
      const { door } = b.addDoor(2, roomIdx, 2, undefined, true);
      const { obj } = b.addObject(2, roomIdx, 'ball');
      b.addObject(0, b.randInt(0, b.numRows), 'key', door.color);
      b.placeAgent(1, b.numRows >> 1);
      b.connectAll();
      return pickup(desc(obj.type));
    },
  },
};

/** The instruction's surface form (minigrid's surface()), with descriptions resolved in the final layout. */
export function surface(b: RoomGridBuilder, n: InstrSpec): string {
  const d = (x: DescSpec): string => {
    let s: string = x.type ?? 'object';
    if (x.color) s = `${x.color} ${s}`;
    if (x.loc) s += x.loc === 'front' ? ' in front of you' : x.loc === 'behind' ? ' behind you' : ` on your ${x.loc}`;
    return (b.matching(x).objs.length > 1 ? 'a ' : 'the ') + s;
  };
  switch (n.op) {
    case 'goto':
      return `go to ${d(n.desc)}`;
    case 'open':
      return `open ${d(n.desc)}`;
    case 'pickup':
      return `pick up ${d(n.desc)}`;
    case 'putnext':
      return `put ${d(n.move)} next to ${d(n.fixed)}`;
    case 'before':
      return `${surface(b, n.a)}, then ${surface(b, n.b)}`;
    case 'after':
      return `${surface(b, n.a)} after you ${surface(b, n.b)}`;
    case 'and':
      return `${surface(b, n.a)} and ${surface(b, n.b)}`;
  }
}

function numNavs(n: InstrSpec): number {
  if (n.op === 'putnext') return 2;
  if (n.op === 'before' || n.op === 'after' || n.op === 'and') return numNavs(n.a) + numNavs(n.b);
  return 1;
}

export interface Generated {
  envId: string;
  seed: number;
  mission: string;
  maxSteps: number;
  width: number;
  height: number;
  roomSize: number;
  numRows: number;
  numCols: number;
  agentPos: Pos;
  agentDir: number;
  grid: Grid;
  instr: InstrSpec;
  world: World;
}

/** env.reset(seed) of a BabyAI level: the generated start state. Throws for a level not in LEVELS. */
export function generateLevel(envId: string, seed: number, log?: DrawLog): Generated {
  const def = LEVELS[envId];
  if (!def) throw new Error(`no generator for ${envId}`);
  const b = new RoomGridBuilder(NumpyRandom.fromSeed(seed), def.roomSize, def.numRows, def.numCols, log);
  let instr: InstrSpec;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 10_000) throw new Error(`generation of ${envId} keeps failing`);
    b.layRooms();
    try {
      instr = def.gen(b);
      break;
    } catch (err) {
      if (err instanceof RejectSampling || err instanceof GenerationTimeout) continue;
      throw err;
    }
  }
  const grid = b.grid();
  const maxSteps = def.maxSteps ?? numNavs(instr) * def.roomSize ** 2 * def.numRows * def.numCols;
  const agentPos: Pos = [b.agentPos[0], b.agentPos[1]];
  const world: World = {
    grid,
    agentPos,
    agentDir: b.agentDir,
    carrying: null,
    stepCount: 0,
    maxSteps,
    verifier: initVerifier(instr, grid, b, agentPos, b.agentDir),
  };
  return {
    envId,
    seed,
    mission: surface(b, instr),
    maxSteps,
    width: b.width,
    height: b.height,
    roomSize: def.roomSize,
    numRows: def.numRows,
    numCols: def.numCols,
    agentPos,
    agentDir: b.agentDir,
    grid,
    instr,
    world,
  };
}
