/**
 * 3D OpenSimplex noise (Kurt Spencer's 2014 algorithm) with the values the Python package
 * `opensimplex` 0.4.5 gives (lmas/opensimplex tag v0.4.5, commit cc2fbd21, opensimplex/internals.py:
 * `_init`, `_extrapolate3`, `_noise3`). Crafter's world generation calls `OpenSimplex(seed).noise3`.
 *
 * Bit-exactness: every floating-point expression keeps upstream's operands and their order (IEEE
 * doubles round the same in Python and JavaScript); the permutation comes from upstream's 64-bit
 * LCG seeding (wrapped to signed 64 bits) with Python's non-negative modulo. The npm packages do
 * not reproduce it (checked 2026-11: `open-simplex-noise` 2.x seeds its permutation differently,
 * e.g. seed 0 at (0.5, 0.5, 0.5) gives -0.1738 where opensimplex 0.4.5 gives 0.6637;
 * `simplex-noise` 4.x is a different algorithm).
 */

const STRETCH3 = -1.0 / 6;
const SQUISH3 = 1.0 / 3;
const NORM3 = 103;

/** Upstream's 3D gradients (vertices of a skewed rhombicuboctahedron), 24 × (x, y, z). */
const GRADIENTS3 = new Int8Array([
  -11, 4, 4, -4, 11, 4, -4, 4, 11,
  11, 4, 4, 4, 11, 4, 4, 4, 11,
  -11, -4, 4, -4, -11, 4, -4, -4, 11,
  11, -4, 4, 4, -11, 4, 4, -4, 11,
  -11, 4, -4, -4, 11, -4, -4, 4, -11,
  11, 4, -4, 4, 11, -4, 4, 4, -11,
  -11, -4, -4, -4, -11, -4, -4, -4, -11,
  11, -4, -4, 4, -11, -4, 4, -4, -11,
]);

/**
 * Upstream's seeding LCG, s ← s · 6364136223846793005 + 1442695040888963407 (mod 2^64), on four
 * 16-bit limbs (least significant first): exact in doubles, nothing allocated per step.
 */
const MUL = [0x7f2d, 0x4c95, 0xf42d, 0x5851];
const ADD = [0x814f, 0xf767, 0x7b7e, 0x1405];
const limbs = new Float64Array(4);
const sums = new Float64Array(4);
function lcgStep(): void {
  for (let k = 0; k < 4; k++) sums[k] = ADD[k];
  for (let i = 0; i < 4; i++) for (let j = 0; i + j < 4; j++) sums[i + j] += limbs[i] * MUL[j];
  let carry = 0;
  for (let k = 0; k < 4; k++) {
    const v = sums[k] + carry;
    limbs[k] = v % 65536;
    carry = Math.floor(v / 65536);
  }
}
/** Python's `(s + 31) % m` for the limbs read as a signed 64-bit int (upstream wraps with c_int64). */
function pyModPlus31(m: number): number {
  let u = 0;
  for (let k = 3; k >= 0; k--) u = (u * 65536 + limbs[k]) % m;
  if (limbs[3] >= 0x8000) {
    let twoTo64 = 1;
    for (let k = 0; k < 4; k++) twoTo64 = (twoTo64 * 65536) % m;
    u = (u - twoTo64 + m) % m;
  }
  return (u + 31) % m;
}

/**
 * The running sum of one evaluation. Contributions add into it in upstream's order instead of
 * returning numbers (a double returned from a call is boxed; this keeps world generation free of
 * garbage).
 */
const sum = new Float64Array(1);

/**
 * Add one lattice vertex's contribution: attenuation⁴ times the gradient (upstream `_extrapolate3`)
 * dotted with the offset; nothing outside the vertex's radius.
 */
function contribution(perm: Int32Array, gradIndex: Int32Array, xsb: number, ysb: number, zsb: number, dx: number, dy: number, dz: number): void {
  let attn = 2 - dx * dx - dy * dy - dz * dz;
  if (!(attn > 0)) return;
  attn *= attn;
  const g = gradIndex[(perm[(perm[xsb & 0xff] + ysb) & 0xff] + zsb) & 0xff];
  sum[0] += attn * attn * (GRADIENTS3[g] * dx + GRADIENTS3[g + 1] * dy + GRADIENTS3[g + 2] * dz);
}

export class OpenSimplex {
  private readonly perm = new Int32Array(256);
  /** Index into GRADIENTS3 for each permuted value: (perm % 24) · 3. */
  private readonly gradIndex = new Int32Array(256);

  /** `OpenSimplex(seed)` for a non-negative integer seed (crafter's are below 2^31). */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`OpenSimplex seed must be a non-negative integer, got ${seed}`);
    for (let k = 0; k < 4; k++) limbs[k] = Math.floor(seed / 65536 ** k) % 65536;
    lcgStep();
    lcgStep();
    lcgStep();
    const source = new Int32Array(256);
    for (let i = 0; i < 256; i++) source[i] = i;
    for (let i = 255; i >= 0; i--) {
      lcgStep();
      const r = pyModPlus31(i + 1);
      this.perm[i] = source[r];
      this.gradIndex[i] = (this.perm[i] % 24) * 3;
      source[r] = source[i];
    }
  }

  noise3(x: number, y: number, z: number): number {
    // Onto the simplectic honeycomb; floor to the rhombohedral super-cell origin.
    const stretch = (x + y + z) * STRETCH3;
    const xs = x + stretch;
    const ys = y + stretch;
    const zs = z + stretch;
    const xsb = Math.floor(xs);
    const ysb = Math.floor(ys);
    const zsb = Math.floor(zs);
    const squish = (xsb + ysb + zsb) * SQUISH3;
    const xins = xs - xsb;
    const yins = ys - ysb;
    const zins = zs - zsb;
    const inSum = xins + yins + zins;
    const dx0 = x - (xsb + squish);
    const dy0 = y - (ysb + squish);
    const dz0 = z - (zsb + squish);
    const perm = this.perm, grad = this.gradIndex;
    // Three regions, one function each (small enough for the JIT to inline every vertex).
    if (inSum <= 1) return nearOrigin(perm, grad, xsb, ysb, zsb, xins, yins, zins, inSum, dx0, dy0, dz0);
    if (inSum >= 2) return nearFar(perm, grad, xsb, ysb, zsb, xins, yins, zins, inSum, dx0, dy0, dz0);
    return between(perm, grad, xsb, ysb, zsb, xins, yins, zins, inSum, dx0, dy0, dz0);
  }
}

/** Inside the tetrahedron at (0,0,0). */
function nearOrigin(perm: Int32Array, grad: Int32Array, xsb: number, ysb: number, zsb: number, xins: number, yins: number, zins: number, inSum: number, dx0: number, dy0: number, dz0: number): number {
  // Upstream's sum starts as the int 0; 0 + x is x either way.
  sum[0] = 0;
  // Initialised so the engine keeps them as plain numbers.
  let xe0 = 0, ye0 = 0, ze0 = 0, xe1 = 0, ye1 = 0, ze1 = 0;
  let dxe0 = 0, dye0 = 0, dze0 = 0, dxe1 = 0, dye1 = 0, dze1 = 0;
    // Tetrahedron at (0,0,0): which two of (1,0,0), (0,1,0), (0,0,1) are closest.
    let aPoint = 0x01, aScore = xins, bPoint = 0x02, bScore = yins;
    if (aScore >= bScore && zins > bScore) { bScore = zins; bPoint = 0x04; }
    else if (aScore < bScore && zins > aScore) { aScore = zins; aPoint = 0x04; }
    const wins = 1 - inSum;
    if (wins > aScore || wins > bScore) {
      const c = bScore > aScore ? bPoint : aPoint;
      if ((c & 0x01) === 0) { xe0 = xsb - 1; xe1 = xsb; dxe0 = dx0 + 1; dxe1 = dx0; }
      else { xe0 = xe1 = xsb + 1; dxe0 = dxe1 = dx0 - 1; }
      if ((c & 0x02) === 0) {
        ye0 = ye1 = ysb; dye0 = dye1 = dy0;
        if ((c & 0x01) === 0) { ye1 -= 1; dye1 += 1; } else { ye0 -= 1; dye0 += 1; }
      } else { ye0 = ye1 = ysb + 1; dye0 = dye1 = dy0 - 1; }
      if ((c & 0x04) === 0) { ze0 = zsb; ze1 = zsb - 1; dze0 = dz0; dze1 = dz0 + 1; }
      else { ze0 = ze1 = zsb + 1; dze0 = dze1 = dz0 - 1; }
    } else {
      const c = aPoint | bPoint;
      if ((c & 0x01) === 0) { xe0 = xsb; xe1 = xsb - 1; dxe0 = dx0 - 2 * SQUISH3; dxe1 = dx0 + 1 - SQUISH3; }
      else { xe0 = xe1 = xsb + 1; dxe0 = dx0 - 1 - 2 * SQUISH3; dxe1 = dx0 - 1 - SQUISH3; }
      if ((c & 0x02) === 0) { ye0 = ysb; ye1 = ysb - 1; dye0 = dy0 - 2 * SQUISH3; dye1 = dy0 + 1 - SQUISH3; }
      else { ye0 = ye1 = ysb + 1; dye0 = dy0 - 1 - 2 * SQUISH3; dye1 = dy0 - 1 - SQUISH3; }
      if ((c & 0x04) === 0) { ze0 = zsb; ze1 = zsb - 1; dze0 = dz0 - 2 * SQUISH3; dze1 = dz0 + 1 - SQUISH3; }
      else { ze0 = ze1 = zsb + 1; dze0 = dz0 - 1 - 2 * SQUISH3; dze1 = dz0 - 1 - SQUISH3; }
    }
    contribution(perm, grad, xsb, ysb, zsb, dx0, dy0, dz0);
    const dx1 = dx0 - 1 - SQUISH3, dy1 = dy0 - 0 - SQUISH3, dz1 = dz0 - 0 - SQUISH3;
    contribution(perm, grad, xsb + 1, ysb, zsb, dx1, dy1, dz1);
    const dx2 = dx0 - 0 - SQUISH3, dy2 = dy0 - 1 - SQUISH3;
    contribution(perm, grad, xsb, ysb + 1, zsb, dx2, dy2, dz1);
    contribution(perm, grad, xsb, ysb, zsb + 1, dx2, dy1, dz0 - 1 - SQUISH3);
  contribution(perm, grad, xe0, ye0, ze0, dxe0, dye0, dze0);
  contribution(perm, grad, xe1, ye1, ze1, dxe1, dye1, dze1);
  return sum[0] / NORM3;
}

/** Inside the tetrahedron at (1,1,1). */
function nearFar(perm: Int32Array, grad: Int32Array, xsb: number, ysb: number, zsb: number, xins: number, yins: number, zins: number, inSum: number, dx0: number, dy0: number, dz0: number): number {
  // Upstream's sum starts as the int 0; 0 + x is x either way.
  sum[0] = 0;
  // Initialised so the engine keeps them as plain numbers.
  let xe0 = 0, ye0 = 0, ze0 = 0, xe1 = 0, ye1 = 0, ze1 = 0;
  let dxe0 = 0, dye0 = 0, dze0 = 0, dxe1 = 0, dye1 = 0, dze1 = 0;
    // Tetrahedron at (1,1,1): which two of (1,1,0), (1,0,1), (0,1,1) are closest.
    let aPoint = 0x06, aScore = xins, bPoint = 0x05, bScore = yins;
    if (aScore <= bScore && zins < bScore) { bScore = zins; bPoint = 0x03; }
    else if (aScore > bScore && zins < aScore) { aScore = zins; aPoint = 0x03; }
    const wins = 3 - inSum;
    if (wins < aScore || wins < bScore) {
      const c = bScore < aScore ? bPoint : aPoint;
      if ((c & 0x01) !== 0) { xe0 = xsb + 2; xe1 = xsb + 1; dxe0 = dx0 - 2 - 3 * SQUISH3; dxe1 = dx0 - 1 - 3 * SQUISH3; }
      else { xe0 = xe1 = xsb; dxe0 = dxe1 = dx0 - 3 * SQUISH3; }
      if ((c & 0x02) !== 0) {
        ye0 = ye1 = ysb + 1; dye0 = dye1 = dy0 - 1 - 3 * SQUISH3;
        if ((c & 0x01) !== 0) { ye1 += 1; dye1 -= 1; } else { ye0 += 1; dye0 -= 1; }
      } else { ye0 = ye1 = ysb; dye0 = dye1 = dy0 - 3 * SQUISH3; }
      if ((c & 0x04) !== 0) { ze0 = zsb + 1; ze1 = zsb + 2; dze0 = dz0 - 1 - 3 * SQUISH3; dze1 = dz0 - 2 - 3 * SQUISH3; }
      else { ze0 = ze1 = zsb; dze0 = dze1 = dz0 - 3 * SQUISH3; }
    } else {
      const c = aPoint & bPoint;
      if ((c & 0x01) !== 0) { xe0 = xsb + 1; xe1 = xsb + 2; dxe0 = dx0 - 1 - SQUISH3; dxe1 = dx0 - 2 - 2 * SQUISH3; }
      else { xe0 = xe1 = xsb; dxe0 = dx0 - SQUISH3; dxe1 = dx0 - 2 * SQUISH3; }
      if ((c & 0x02) !== 0) { ye0 = ysb + 1; ye1 = ysb + 2; dye0 = dy0 - 1 - SQUISH3; dye1 = dy0 - 2 - 2 * SQUISH3; }
      else { ye0 = ye1 = ysb; dye0 = dy0 - SQUISH3; dye1 = dy0 - 2 * SQUISH3; }
      if ((c & 0x04) !== 0) { ze0 = zsb + 1; ze1 = zsb + 2; dze0 = dz0 - 1 - SQUISH3; dze1 = dz0 - 2 - 2 * SQUISH3; }
      else { ze0 = ze1 = zsb; dze0 = dz0 - SQUISH3; dze1 = dz0 - 2 * SQUISH3; }
    }
    const dx3 = dx0 - 1 - 2 * SQUISH3, dy3 = dy0 - 1 - 2 * SQUISH3, dz3 = dz0 - 0 - 2 * SQUISH3;
    contribution(perm, grad, xsb + 1, ysb + 1, zsb, dx3, dy3, dz3);
    const dy2 = dy0 - 0 - 2 * SQUISH3, dz2 = dz0 - 1 - 2 * SQUISH3;
    contribution(perm, grad, xsb + 1, ysb, zsb + 1, dx3, dy2, dz2);
    contribution(perm, grad, xsb, ysb + 1, zsb + 1, dx0 - 0 - 2 * SQUISH3, dy3, dz2);
    dx0 = dx0 - 1 - 3 * SQUISH3;
    dy0 = dy0 - 1 - 3 * SQUISH3;
    dz0 = dz0 - 1 - 3 * SQUISH3;
    contribution(perm, grad, xsb + 1, ysb + 1, zsb + 1, dx0, dy0, dz0);
  contribution(perm, grad, xe0, ye0, ze0, dxe0, dye0, dze0);
  contribution(perm, grad, xe1, ye1, ze1, dxe1, dye1, dze1);
  return sum[0] / NORM3;
}

/** Inside the octahedron between the two tetrahedra. */
function between(perm: Int32Array, grad: Int32Array, xsb: number, ysb: number, zsb: number, xins: number, yins: number, zins: number, inSum: number, dx0: number, dy0: number, dz0: number): number {
  // Upstream's sum starts as the int 0; 0 + x is x either way.
  sum[0] = 0;
  // Initialised so the engine keeps them as plain numbers.
  let xe0 = 0, ye0 = 0, ze0 = 0, xe1 = 0, ye1 = 0, ze1 = 0;
  let dxe0 = 0, dye0 = 0, dze0 = 0, dxe1 = 0, dye1 = 0, dze1 = 0;
    // Octahedron in between: the two closest of the six middle vertices.
    let aScore = 0, aPoint = 0, aFar = false;
    let bScore = 0, bPoint = 0, bFar = false;
    const p1 = xins + yins;
    if (p1 > 1) { aScore = p1 - 1; aPoint = 0x03; aFar = true; }
    else { aScore = 1 - p1; aPoint = 0x04; aFar = false; }
    const p2 = xins + zins;
    if (p2 > 1) { bScore = p2 - 1; bPoint = 0x05; bFar = true; }
    else { bScore = 1 - p2; bPoint = 0x02; bFar = false; }
    const p3 = yins + zins;
    if (p3 > 1) {
      const score = p3 - 1;
      if (aScore <= bScore && aScore < score) { aPoint = 0x06; aFar = true; }
      else if (aScore > bScore && bScore < score) { bPoint = 0x06; bFar = true; }
    } else {
      const score = 1 - p3;
      if (aScore <= bScore && aScore < score) { aPoint = 0x01; aFar = false; }
      else if (aScore > bScore && bScore < score) { bPoint = 0x01; bFar = false; }
    }
    if (aFar === bFar) {
      if (aFar) {
        dxe0 = dx0 - 1 - 3 * SQUISH3; dye0 = dy0 - 1 - 3 * SQUISH3; dze0 = dz0 - 1 - 3 * SQUISH3;
        xe0 = xsb + 1; ye0 = ysb + 1; ze0 = zsb + 1;
        const c = aPoint & bPoint;
        if ((c & 0x01) !== 0) {
          dxe1 = dx0 - 2 - 2 * SQUISH3; dye1 = dy0 - 2 * SQUISH3; dze1 = dz0 - 2 * SQUISH3;
          xe1 = xsb + 2; ye1 = ysb; ze1 = zsb;
        } else if ((c & 0x02) !== 0) {
          dxe1 = dx0 - 2 * SQUISH3; dye1 = dy0 - 2 - 2 * SQUISH3; dze1 = dz0 - 2 * SQUISH3;
          xe1 = xsb; ye1 = ysb + 2; ze1 = zsb;
        } else {
          dxe1 = dx0 - 2 * SQUISH3; dye1 = dy0 - 2 * SQUISH3; dze1 = dz0 - 2 - 2 * SQUISH3;
          xe1 = xsb; ye1 = ysb; ze1 = zsb + 2;
        }
      } else {
        dxe0 = dx0; dye0 = dy0; dze0 = dz0;
        xe0 = xsb; ye0 = ysb; ze0 = zsb;
        const c = aPoint | bPoint;
        if ((c & 0x01) === 0) {
          dxe1 = dx0 + 1 - SQUISH3; dye1 = dy0 - 1 - SQUISH3; dze1 = dz0 - 1 - SQUISH3;
          xe1 = xsb - 1; ye1 = ysb + 1; ze1 = zsb + 1;
        } else if ((c & 0x02) === 0) {
          dxe1 = dx0 - 1 - SQUISH3; dye1 = dy0 + 1 - SQUISH3; dze1 = dz0 - 1 - SQUISH3;
          xe1 = xsb + 1; ye1 = ysb - 1; ze1 = zsb + 1;
        } else {
          dxe1 = dx0 - 1 - SQUISH3; dye1 = dy0 - 1 - SQUISH3; dze1 = dz0 + 1 - SQUISH3;
          xe1 = xsb + 1; ye1 = ysb + 1; ze1 = zsb - 1;
        }
      }
    } else {
      const c1 = aFar ? aPoint : bPoint;
      const c2 = aFar ? bPoint : aPoint;
      if ((c1 & 0x01) === 0) {
        dxe0 = dx0 + 1 - SQUISH3; dye0 = dy0 - 1 - SQUISH3; dze0 = dz0 - 1 - SQUISH3;
        xe0 = xsb - 1; ye0 = ysb + 1; ze0 = zsb + 1;
      } else if ((c1 & 0x02) === 0) {
        dxe0 = dx0 - 1 - SQUISH3; dye0 = dy0 + 1 - SQUISH3; dze0 = dz0 - 1 - SQUISH3;
        xe0 = xsb + 1; ye0 = ysb - 1; ze0 = zsb + 1;
      } else {
        dxe0 = dx0 - 1 - SQUISH3; dye0 = dy0 - 1 - SQUISH3; dze0 = dz0 + 1 - SQUISH3;
        xe0 = xsb + 1; ye0 = ysb + 1; ze0 = zsb - 1;
      }
      dxe1 = dx0 - 2 * SQUISH3; dye1 = dy0 - 2 * SQUISH3; dze1 = dz0 - 2 * SQUISH3;
      xe1 = xsb; ye1 = ysb; ze1 = zsb;
      if ((c2 & 0x01) !== 0) { dxe1 -= 2; xe1 += 2; }
      else if ((c2 & 0x02) !== 0) { dye1 -= 2; ye1 += 2; }
      else { dze1 -= 2; ze1 += 2; }
    }
    const dx1 = dx0 - 1 - SQUISH3, dy1 = dy0 - 0 - SQUISH3, dz1 = dz0 - 0 - SQUISH3;
    contribution(perm, grad, xsb + 1, ysb, zsb, dx1, dy1, dz1);
    const dx2 = dx0 - 0 - SQUISH3, dy2 = dy0 - 1 - SQUISH3;
    contribution(perm, grad, xsb, ysb + 1, zsb, dx2, dy2, dz1);
    contribution(perm, grad, xsb, ysb, zsb + 1, dx2, dy1, dz0 - 1 - SQUISH3);
    const dx4 = dx0 - 1 - 2 * SQUISH3, dy4 = dy0 - 1 - 2 * SQUISH3, dz4 = dz0 - 0 - 2 * SQUISH3;
    contribution(perm, grad, xsb + 1, ysb + 1, zsb, dx4, dy4, dz4);
    const dy5 = dy0 - 0 - 2 * SQUISH3, dz5 = dz0 - 1 - 2 * SQUISH3;
    contribution(perm, grad, xsb + 1, ysb, zsb + 1, dx4, dy5, dz5);
    contribution(perm, grad, xsb, ysb + 1, zsb + 1, dx0 - 0 - 2 * SQUISH3, dy4, dz5);
  contribution(perm, grad, xe0, ye0, ze0, dxe0, dye0, dze0);
  contribution(perm, grad, xe1, ye1, ze1, dxe1, dye1, dze1);
  return sum[0] / NORM3;
}
