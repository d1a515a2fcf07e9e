/**
 * Benchmark figures for ALFWorld (the project's bench script): per game, the time to build and
 * reset it (parse the problem and grammar, first admissible commands; problem text already
 * loaded) and the time of one step (a random admissible command, its feedback and the next
 * admissible commands), median and slowest over all 134 games; beside upstream's figures measured
 * here (README.md: about 16 steps per CPU-second, about 2 s to build and reset a game).
 * Returns printable lines; asserts nothing.
 */
import type { EnvBench } from '../core/types.ts';
import { Rng } from '../core/rng.ts';
import { GAMES, loadProblem } from './games.ts';
import { World } from './world.ts';
import logic from './data/logic.json';
import { originalDomain, originalGrammar } from './games.ts';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export async function benchAlfworld(options: { steps?: number; seed?: number } = {}): Promise<string[]> {
  const stepsPerGame = options.steps ?? 30;
  const rng = Rng.fromSeed(options.seed ?? 42);
  const resets: number[] = [];
  const steps: number[] = [];
  let slowestReset = { ms: 0, game: '' };
  let slowestStep = { ms: 0, game: '' };
  for (let g = 0; g < GAMES.length; g++) {
    const problem = await loadProblem(g);
    const grammar = originalGrammar(logic.grammar.replace('"rhs": "TASK_LINE"', `"rhs": ${JSON.stringify(GAMES[g].task)}`));
    const t0 = performance.now();
    const world = new World({ domain: originalDomain(logic.domain), grammar, problem });
    let state = world.initial;
    world.intro(state);
    let admissible = world.admissible(state);
    const resetMs = performance.now() - t0;
    resets.push(resetMs);
    if (resetMs > slowestReset.ms) slowestReset = { ms: resetMs, game: GAMES[g].path };
    for (let t = 0; t < stepsPerGame; t++) {
      const command = admissible[rng.below(admissible.length)];
      const s0 = performance.now();
      const r = world.play(state, command);
      if (r) {
        state = r.state;
        admissible = world.admissible(state);
        world.won(state);
      }
      const ms = performance.now() - s0;
      steps.push(ms);
      if (ms > slowestStep.ms) slowestStep = { ms, game: GAMES[g].path };
    }
  }
  const f = (x: number) => x.toFixed(2);
  return [
    `reset (build + welcome + commands), ${GAMES.length} games: median ${f(median(resets))} ms, slowest ${f(slowestReset.ms)} ms (${slowestReset.game.split('/')[1]}); upstream here ≈ 2,000 ms`,
    `step (play + commands + goal check), ${steps.length} random steps: median ${f(median(steps))} ms, slowest ${f(slowestStep.ms)} ms; ${Math.round(1000 / median(steps))} steps/s at the median, ${Math.round(1000 / median(steps) / 16)}× upstream's 16 steps/s`,
  ];
}

export const bench: EnvBench = { title: 'ALFWorld', run: () => benchAlfworld() };
