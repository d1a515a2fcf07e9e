/**
 * numpy's default random generator, as minigrid's `np_random` uses it
 * (`Generator(PCG64(SeedSequence(seed)))`), reimplemented from the algorithm
 * description in tests/fixtures/upstream/agentboard/babyai/BEHAVIOUR.md §5.1 (numpy's
 * bit_generator.pyx, _pcg64.pyx and _generator.pyx):
 *   - SeedSequence pool mixing and generate_state (32-bit arithmetic, Math.imul),
 *   - PCG64: 128-bit LCG with XSL-RR output, kept as eight 16-bit limbs so the
 *     hot path needs no BigInt,
 *   - Generator.integers(low, high) for ranges below 2^32 (Lemire's method on 32 bits,
 *     with numpy's buffered 32-bit half), Generator.uniform(low, high).
 * BigInt appears only at the edges (seeding from / reporting 128-bit state).
 */

const MASK32 = 0xffffffff;

/** SeedSequence(seed).generate_state(4, uint64) as eight uint32 words (low word of each uint64 first). */
export function seedSequenceWords(seed: number | bigint): number[] {
  let s = BigInt(seed);
  if (s < 0n) throw new RangeError('SeedSequence entropy must be non-negative');
  const entropy: number[] = [];
  do {
    entropy.push(Number(s & 0xffffffffn));
    s >>= 32n;
  } while (s > 0n);

  let hashConst = 0x43b0d7e5;
  const hashmix = (value: number): number => {
    let v = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, 0x931e8875) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    return (v ^ (v >>> 16)) >>> 0;
  };
  const mix = (x: number, y: number): number => {
    let r = (Math.imul(0xca01f9dd, x) - Math.imul(0x4973f715, y)) >>> 0;
    return (r ^ (r >>> 16)) >>> 0;
  };

  const pool = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0);
  for (let src = 0; src < 4; src++) {
    for (let dst = 0; dst < 4; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  for (let i = 4; i < entropy.length; i++) {
    for (let dst = 0; dst < 4; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[i]));
  }

  const words: number[] = [];
  let h = 0x8b51f9dd;
  for (let n = 0; n < 8; n++) {
    let v = (pool[n % 4] ^ h) >>> 0;
    h = Math.imul(h, 0x58f38ded) >>> 0;
    v = Math.imul(v, h) >>> 0;
    words.push((v ^ (v >>> 16)) >>> 0);
  }
  return words;
}

/** SeedSequence(seed).generate_state(4, np.uint64), as BigInts. */
export function seedSequenceState(seed: number | bigint): bigint[] {
  const w = seedSequenceWords(seed);
  const out: bigint[] = [];
  for (let m = 0; m < 4; m++) out.push(BigInt(w[2 * m]) | (BigInt(w[2 * m + 1]) << 32n));
  return out;
}

// 128-bit numbers as 8 little-endian 16-bit limbs.
type Limbs = Float64Array;

const MULT = toLimbs(0x2360ed051fc65da44385df649fccf645n);
const [M0, M1, M2, M3, M4, M5, M6, M7] = MULT;
const ZERO_STATE = { state: 0n, inc: 0n };

function toLimbs(v: bigint): Limbs {
  const out = new Float64Array(8);
  for (let i = 0; i < 8; i++) {
    out[i] = Number(v & 0xffffn);
    v >>= 16n;
  }
  return out;
}

function fromLimbs(l: Limbs): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 16n) | BigInt(l[i]);
  return v;
}

export interface Pcg64State {
  state: bigint;
  inc: bigint;
}

export class NumpyRandom {
  private readonly s: Limbs = new Float64Array(8);
  private readonly inc: Limbs = new Float64Array(8);
  private hasHalf = false;
  private half = 0;
  // Output of the last next64: high and low 32-bit halves.
  private outHi = 0;
  private outLo = 0;

  /** A generator with an explicit PCG64 state (and an empty 32-bit buffer). */
  constructor(state: Pcg64State) {
    if (state === ZERO_STATE) return; // filled by the caller
    this.s.set(toLimbs(BigInt.asUintN(128, state.state)));
    this.inc.set(toLimbs(BigInt.asUintN(128, state.inc)));
  }

  /**
   * `np.random.default_rng(seed)`, i.e. Generator(PCG64(SeedSequence(seed))): from the seed
   * sequence's four 64-bit words, initstate = w0:w1 and initseq = w2:w3 (high:low); inc =
   * initseq << 1 | 1; state = (inc + initstate) * MULT + inc. In 16-bit limbs, no BigInt (a reset
   * seeds a generator).
   */
  static fromSeed(seed: number | bigint): NumpyRandom {
    const w = seedSequenceWords(seed);
    const r = new NumpyRandom(ZERO_STATE);
    // 128-bit values from (high uint64, low uint64), each uint64 given as (low32, high32) words.
    const limbs = (out: Limbs, hiLo32: number, hiHi32: number, loLo32: number, loHi32: number) => {
      out[0] = loLo32 & 0xffff;
      out[1] = loLo32 >>> 16;
      out[2] = loHi32 & 0xffff;
      out[3] = loHi32 >>> 16;
      out[4] = hiLo32 & 0xffff;
      out[5] = hiLo32 >>> 16;
      out[6] = hiHi32 & 0xffff;
      out[7] = hiHi32 >>> 16;
    };
    limbs(r.s, w[0], w[1], w[2], w[3]);
    limbs(r.inc, w[4], w[5], w[6], w[7]);
    // inc = initseq << 1 | 1 (mod 2^128).
    for (let k = 7; k > 0; k--) r.inc[k] = ((r.inc[k] << 1) & 0xffff) | (r.inc[k - 1] >>> 15);
    r.inc[0] = ((r.inc[0] << 1) & 0xffff) | 1;
    // state = initstate + inc (mod 2^128), then one step.
    let carry = 0;
    for (let k = 0; k < 8; k++) {
      const v = r.s[k] + r.inc[k] + carry;
      carry = v >= 65536 ? 1 : 0;
      r.s[k] = v - carry * 65536;
    }
    r.advance();
    return r;
  }

  /** The PCG64 state as numpy reports it (`bit_generator.state['state']`). */
  get pcgState(): Pcg64State {
    return { state: fromLimbs(this.s), inc: fromLimbs(this.inc) };
  }

  /** A copy with the same state and buffer. */
  clone(): NumpyRandom {
    const c = new NumpyRandom(ZERO_STATE);
    c.s.set(this.s);
    c.inc.set(this.inc);
    c.hasHalf = this.hasHalf;
    c.half = this.half;
    return c;
  }

  /**
   * state = state * MULT + inc (mod 2^128), column by column: column k sums s[i] * MULT[k - i]
   * (at most 8 products below 2^32, so below 2^35), the increment and the carry; all exact in
   * doubles. Division by 65536 and floor instead of `%`: `%` on doubles is a slow call.
   */
  private advance(): void {
    const s = this.s;
    const inc = this.inc;
    const s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], s4 = s[4], s5 = s[5], s6 = s[6], s7 = s[7];
    let acc = s0 * M0 + inc[0];
    let carry = Math.floor(acc / 65536);
    s[0] = acc - carry * 65536;
    acc = s0 * M1 + s1 * M0 + inc[1] + carry;
    carry = Math.floor(acc / 65536);
    s[1] = acc - carry * 65536;
    acc = s0 * M2 + s1 * M1 + s2 * M0 + inc[2] + carry;
    carry = Math.floor(acc / 65536);
    s[2] = acc - carry * 65536;
    acc = s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0 + inc[3] + carry;
    carry = Math.floor(acc / 65536);
    s[3] = acc - carry * 65536;
    acc = s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0 + inc[4] + carry;
    carry = Math.floor(acc / 65536);
    s[4] = acc - carry * 65536;
    acc = s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0 + inc[5] + carry;
    carry = Math.floor(acc / 65536);
    s[5] = acc - carry * 65536;
    acc = s0 * M6 + s1 * M5 + s2 * M4 + s3 * M3 + s4 * M2 + s5 * M1 + s6 * M0 + inc[6] + carry;
    carry = Math.floor(acc / 65536);
    s[6] = acc - carry * 65536;
    acc = s0 * M7 + s1 * M6 + s2 * M5 + s3 * M4 + s4 * M3 + s5 * M2 + s6 * M1 + s7 * M0 + inc[7] + carry;
    s[7] = acc - Math.floor(acc / 65536) * 65536;
  }

  /** One 64-bit output, left in outHi / outLo. */
  private next64Halves(): void {
    this.advance();
    const s = this.s;
    // x = hi64 ^ lo64, as two 32-bit halves.
    const xLo = ((s[0] | (s[1] << 16)) ^ (s[4] | (s[5] << 16))) >>> 0;
    const xHi = ((s[2] | (s[3] << 16)) ^ (s[6] | (s[7] << 16))) >>> 0;
    const rot = s[7] >>> 10; // state >> 122
    let hi = xHi;
    let lo = xLo;
    let r = rot;
    if (r >= 32) {
      const t = hi;
      hi = lo;
      lo = t;
      r -= 32;
    }
    if (r > 0) {
      const nh = ((hi >>> r) | (lo << (32 - r))) >>> 0;
      const nl = ((lo >>> r) | (hi << (32 - r))) >>> 0;
      hi = nh;
      lo = nl;
    }
    this.outHi = hi;
    this.outLo = lo;
  }

  /** A raw 64-bit output (`bit_generator.random_raw()`), as a BigInt. */
  next64(): bigint {
    this.next64Halves();
    return (BigInt(this.outHi) << 32n) | BigInt(this.outLo);
  }

  /** numpy's next_uint32: the buffered high half if any, else the low half of a new 64-bit output. */
  next32(): number {
    if (this.hasHalf) {
      this.hasHalf = false;
      return this.half;
    }
    this.next64Halves();
    this.hasHalf = true;
    this.half = this.outHi;
    return this.outLo;
  }

  /** `Generator.integers(low, high)`: an integer in [low, high). Ranges up to 2^32. */
  integers(low: number, high: number): number {
    if (!Number.isInteger(low) || !Number.isInteger(high)) throw new RangeError('integers() needs integer bounds');
    if (high <= low) throw new RangeError('low >= high');
    const r = high - low - 1;
    if (r === 0) return low;
    if (r === MASK32) return low + this.next32();
    if (r > MASK32) throw new RangeError('integers(): ranges wider than 2^32 are not supported');
    const n = r + 1;
    // m = next32() * n as a 64-bit product: low and high 32-bit halves, exactly.
    let x = this.next32();
    let lo = Math.imul(x, n) >>> 0;
    if (lo < n) {
      const threshold = (MASK32 - r) % n;
      while (lo < threshold) {
        x = this.next32();
        lo = Math.imul(x, n) >>> 0;
      }
    }
    const a = (x & 0xffff) * n;
    const b = (x >>> 16) * n + Math.floor(a / 65536);
    return low + Math.floor(b / 65536);
  }

  /** `Generator.uniform(low, high)`: low + (high − low) · (53-bit double from a full 64-bit output). */
  uniform(low: number, high: number): number {
    this.next64Halves();
    const top53 = this.outHi * 2097152 + (this.outLo >>> 11);
    return low + (high - low) * (top53 * 1.1102230246251565e-16);
  }
}
