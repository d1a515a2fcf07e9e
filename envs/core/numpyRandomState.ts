/**
 * numpy's legacy `np.random.RandomState` (MT19937), for ports whose upstream draws from it and must
 * replay upstream's numbers exactly. Followed: numpy's `_mt19937.pyx` (`_legacy_seeding`: an int
 * seed goes through `mt19937_seed`, i.e. Matsumoto–Nishimura `init_genrand`), `randomkit`'s
 * `genrand_int32`, `next_double` ((a >> 5) · 2^26 + (b >> 6)) / 2^53, `RandomState.uniform`
 * (low + (high − low) · next_double) and `randint`'s legacy path (`_bounded_integers.pyx`,
 * `random_bounded_uint64_fill` with `use_masked=True`: draw 32-bit words, mask to the smallest
 * 2^k − 1 ≥ range, reject while above the range; a range of 0 draws nothing).
 */

const N = 624;
const M = 397;

export class NumpyRandomState {
  private readonly mt = new Int32Array(N);
  private index = N;

  /** `np.random.RandomState(seed)` for an integer seed in [0, 2^32). */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`RandomState seed must be an integer in [0, 2**32), got ${seed}`);
    }
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      // 1812433253 * prev + i, modulo 2^32, split so the product stays exact.
      mt[i] = (Math.imul(1812433253, prev) + i) | 0;
    }
    this.index = N;
  }

  private twist(): void {
    // All int32 arithmetic (no constant above 2^31 - 1), so the loop stays on small integers.
    const mt = this.mt;
    const UPPER = 0x80000000 | 0, LOWER = 0x7fffffff, MAG = 0x9908b0df | 0;
    let i = 0;
    let cur = mt[0];
    for (; i < N - M; i++) {
      const next = mt[i + 1];
      const y = (cur & UPPER) | (next & LOWER);
      mt[i] = mt[i + M] ^ (y >>> 1) ^ (-(y & 1) & MAG);
      cur = next;
    }
    for (; i < N - 1; i++) {
      const next = mt[i + 1];
      const y = (cur & UPPER) | (next & LOWER);
      mt[i] = mt[i + M - N] ^ (y >>> 1) ^ (-(y & 1) & MAG);
      cur = next;
    }
    const y = (cur & UPPER) | (mt[0] & LOWER);
    mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (-(y & 1) & MAG);
    this.index = 0;
  }

  /** One 32-bit word (`genrand_int32`), as an unsigned number. */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & (0x9d2c5680 | 0);
    y ^= (y << 15) & (0xefc60000 | 0);
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random_sample()`: a double in [0, 1) from two words. */
  randomSample(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `uniform(low, high)` for one value. */
  uniform(low = 0, high = 1): number {
    return low + (high - low) * this.randomSample();
  }

  /**
   * Advance the stream as `uniform(low, high, size=count)` would, without keeping the values:
   * 2 words per double. Only the untempered state matters for later draws, so whole blocks of 624
   * words are skipped with one twist each.
   */
  skipDoubles(count: number): void {
    let words = 2 * count;
    const left = N - this.index;
    if (words <= left) {
      this.index += words;
      return;
    }
    words -= left;
    this.index = N;
    while (words > N) {
      this.twist();
      words -= N;
    }
    this.twist();
    this.index = words;
  }

  /**
   * A short fingerprint of the state for conformance checks: numpy's `get_state()` position and the
   * sum of its 624 key words mod 2^32.
   */
  signature(): [pos: number, keySum: number] {
    let sum = 0;
    for (let i = 0; i < N; i++) sum = (sum + (this.mt[i] >>> 0)) % 4294967296;
    return [this.index, sum];
  }

  /** `randint(low, high)` (high exclusive), legacy masked rejection; ranges up to 2^32. */
  randint(low: number, high: number): number {
    if (!(high > low)) throw new RangeError(`randint: low >= high (${low}, ${high})`);
    const rng = high - 1 - low;
    if (rng === 0) return low;
    if (rng > 0xffffffff) throw new RangeError('randint: ranges above 2**32 are not ported');
    if (rng === 0xffffffff) return low + this.nextUint32();
    let mask = rng;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    mask >>>= 0;
    let v: number;
    do {
      v = (this.nextUint32() & mask) >>> 0;
    } while (v > rng);
    return low + v;
  }
}
