/**
 * CPython's `hash()` of a tuple of ints on a 64-bit build (3.8+: the xxHash-style tuple hash of
 * Objects/tupleobject.c, and Python/pyhash's int hash: n mod (2^61 − 1) with the sign kept, −1 → −2).
 * Crafter seeds each episode's world with `hash((seed, episode)) % (2**31 - 1)` (crafter env.py reset).
 */

const MASK64 = (1n << 64n) - 1n;
const MODULUS = (1n << 61n) - 1n;
const PRIME1 = 11400714785074694791n;
const PRIME2 = 14029467366897019727n;
const PRIME5 = 2870177450012600261n;

/** CPython's `hash(n)` for an int, as a signed value. */
export function pyIntHash(n: bigint): bigint {
  const negative = n < 0n;
  let h = (negative ? -n : n) % MODULUS;
  if (negative) h = -h;
  return h === -1n ? -2n : h;
}

/** CPython's `hash(tuple_of_ints)`, as a signed 64-bit value. */
export function pyTupleHash(items: readonly (number | bigint)[]): bigint {
  let acc = PRIME5;
  for (const item of items) {
    const lane = pyIntHash(BigInt(item)) & MASK64;
    acc = (acc + lane * PRIME2) & MASK64;
    acc = ((acc << 31n) | (acc >> 33n)) & MASK64;
    acc = (acc * PRIME1) & MASK64;
  }
  acc = (acc + (BigInt(items.length) ^ (PRIME5 ^ 3527539n))) & MASK64;
  if (acc === MASK64) return 1546275796n;
  return BigInt.asIntN(64, acc);
}

/** Crafter's world seed for an env seed and a 1-based episode: `hash((seed, episode)) % (2**31 - 1)`. */
export function crafterWorldSeed(seed: number, episode: number): number {
  const m = (1n << 31n) - 1n;
  const r = pyTupleHash([seed, episode]) % m;
  return Number(r < 0n ? r + m : r);
}
