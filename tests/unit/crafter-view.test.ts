/**
 * Crafter's board (rendered on the server with svelte/server) and its keys: the 9×7 tiles of
 * upstream's local view, the player's facing, vitals, what is held, the achievements, the night
 * shade; every action has a key, Tab is not one.
 */
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import CrafterBoard from '../../envs/crafter/ui/CrafterBoard.svelte';
import { crafter, CRAFTER_ACTIONS, type CrafterState } from '../../envs/crafter/index.ts';
import { crafterKey, CRAFTER_KEY_HINTS } from '../../envs/crafter/keys.ts';
import { rollout, task } from './helpers.ts';
import { simulate } from '../../envs/core/runner.ts';
import { viewOf } from '../../envs/crafter/state.ts';
import { captureFrame } from '../../envs/crafter/frame.ts';
import { sceneOf } from '../../envs/crafter/ui/scene.ts';

const T = task(crafter, 'crafter');
/** Seed 244: trees close to the start (the e2e plays the same). */
const WOOD_TABLE_PICKAXE = ['Move East', 'Move East', 'Do', 'Move East', 'Do', 'Move North', 'Do', 'Place Table', 'Make Wood Pickaxe'];

function html(state: CrafterState, steps: { t: number; reward: number; score: number; observation: string; info?: Record<string, unknown> }[] = []): string {
  return render(CrafterBoard, { props: { state, task: T, steps, observation: '', initialObservation: '', view: 'visual', disabled: false } }).body;
}

describe('CrafterBoard', () => {
  it('draws the 9×7 cells around the player, its facing, full vitals and nothing held at the start', () => {
    const { init } = rollout(crafter, T, 244, []);
    const out = html(init.state);
    expect(out.match(/data-cell="/g)).toHaveLength(63);
    expect(out).toContain('data-testid="crafter-facing"');
    expect(out.match(/aria-valuenow="9"/g)).toHaveLength(4);
    expect(out).toContain('Holding nothing yet.');
    expect(out).toMatch(/data-testid="crafter-achievement-count"[^>]*>0</);
    expect(out).toContain('data-night="false"');
    expect(out).not.toMatch(/[\u{1F300}-\u{1FAFF}]/u);
  });

  it('after wood, a table and a pickaxe: held items with counts, three achievements, the last one marked', () => {
    const { steps, state } = rollout(crafter, T, 244, WOOD_TABLE_PICKAXE);
    const observed = steps.map((s, i) => ({ t: i + 1, reward: s.reward, score: s.score, observation: s.observation, info: s.info }));
    const out = html(state, observed);
    expect(out).toMatch(/data-testid="crafter-achievement-count"[^>]*>3</);
    for (const a of ['collect_wood', 'place_table', 'make_wood_pickaxe']) expect(out).toContain(`data-achievement="${a}"`);
    expect(out).toContain('data-item="wood_pickaxe"');
    expect(out).toContain('data-cell="table"');
    expect(out).toContain('unlocked make wood pickaxe');
  });

  it('is shaded at night (upstream darkens its image by 1 − daylight)', () => {
    const { state } = rollout(crafter, T, 244, Array(220).fill('Noop'));
    const out = html(state);
    expect(out).toContain('data-night="true"');
    const opacity = Number(/opacity="([\d.]+)"[^>]*data-testid="crafter-shade"/.exec(out)?.[1]);
    expect(opacity).toBeGreaterThan(0.3);
  });
});

describe('the frame kept in each state', () => {
  it('is the board of that step: any state of a replay, read backwards, equals the game re-run to it', () => {
    const texts = Array.from({ length: 400 }, (_, i) => CRAFTER_ACTIONS[(i * 7 + 3) % CRAFTER_ACTIONS.length]);
    const states = simulate(crafter, T, 5, texts)!;
    for (const k of [400, 250, 120, 3, 0]) expect(sceneOf(states[k].frame), `step ${k}`).toEqual(sceneOf(captureFrame(viewOf(states[k]))));
  });
});

describe('crafterKey', () => {
  it('arrows and WASD move, Space does, one key for each other action; Tab is not taken', () => {
    const actions = [...CRAFTER_ACTIONS];
    expect(crafterKey('ArrowLeft', actions)).toBe('Move West');
    expect(crafterKey('W', actions)).toBe('Move North');
    expect(crafterKey('d', actions)).toBe('Move East');
    expect(crafterKey(' ', actions)).toBe('Do');
    expect(crafterKey('Tab', actions)).toBeNull();
    for (const digit of '0123456789') expect(crafterKey(digit, actions)).toBeNull();
    const reached = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' ', 'z', 'r', 't', 'f', 'p', 'j', 'k', 'l', 'u', 'i', 'o', 'n'].map((k) => crafterKey(k, actions)));
    expect([...reached].sort()).toEqual([...actions].sort());
    expect(CRAFTER_KEY_HINTS.map((h) => h.keys).join(' ')).toContain('Space');
  });
});
