import { describe, expect, it } from 'vitest';
import { nextSliceSize, reveal, SLICE_MS } from '../../src/lib/slices.ts';

describe('slices of a view drawn a task at a time', () => {
  it('sizes the next slice by what the last one took, growing at most twofold', () => {
    expect(nextSliceSize(100, SLICE_MS * 2)).toBe(50);
    expect(nextSliceSize(100, SLICE_MS / 10)).toBe(200);
    expect(nextSliceSize(3, 500, 2)).toBe(2);
    expect(nextSliceSize(10, 0)).toBe(20);
  });

  it('shows parts in order, a row once the units before it are spent', () => {
    const parts = new Map([
      ['a', [5, 5]],
      ['b', [3]],
      ['c', []],
    ]);
    const none = reveal(parts, 0, 2);
    expect([none.open('a'), none.rows('a'), none.total]).toEqual([false, 0, 2 + 10 + 2 + 3 + 2]);
    const some = reveal(parts, 3, 2);
    expect([some.open('a'), some.rows('a'), some.open('b')]).toEqual([true, 1, false]);
    const more = reveal(parts, 13, 2);
    expect([more.rows('a'), more.open('b'), more.rows('b'), more.open('c')]).toEqual([2, true, 0, false]);
    const all = reveal(parts, Infinity, 2);
    expect([all.rows('a'), all.rows('b'), all.open('c'), all.rows('c'), all.rows('missing')]).toEqual([2, 1, true, 0, 0]);
  });
});
