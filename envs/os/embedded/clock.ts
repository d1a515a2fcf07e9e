/**
 * Simulated time and the processes that run on it. The embedded shell cannot run a real
 * background process, so a task's writer (e.g. "append 'succeed' to /root/log every 3 s")
 * becomes a job with a period; whenever time moves, due jobs run in time order.
 * Time is virtual: the epoch the shell started at + whatever `sleep` skipped (sleep returns at
 * once and moves the clock) + a fixed step per interactive command (advance), so the same seed
 * and actions give the same times whenever they are played or resumed. An optional wall clock
 * adds real elapsed time (not used by default).
 */

export interface Process {
  pid: number;
  /** The command line `ps` shows. */
  command: string;
  /** Start time (simulated epoch ms). */
  started: number;
}

interface Job extends Process {
  periodMs: number;
  nextAt: number;
  action: () => Promise<void>;
}

/** How many job runs one catch-up may do before skipping ahead (a `sleep 1e9` must stay cheap). */
const MAX_RUNS_PER_TICK = 20_000;

/** Simulated time one file write takes (fileTime). */
const WRITE_MS = 1;

export class SimClock {
  private readonly wallStart: number;
  private readonly epochStart: number;
  private skipped = 0;
  private jobs: Job[] = [];
  private nextPid: number;

  constructor(
    private readonly wall: () => number = () => 0,
    epochMs: number = Date.now(),
    firstPid = 100,
  ) {
    this.wallStart = wall();
    this.epochStart = epochMs;
    this.nextPid = firstPid;
  }

  /** Simulated time, epoch milliseconds. */
  now(): number {
    return this.epochStart + (this.wall() - this.wallStart) + this.skipped;
  }

  /** Seconds since the shell started (for `uptime`, `ps` TIME). */
  uptimeSeconds(): number {
    return (this.now() - this.epochStart) / 1000 + 137;
  }

  allocatePid(): number {
    return this.nextPid++;
  }

  /** Start a periodic job; its first run is `firstDelayMs` from now. Returns its pid. */
  startJob(command: string, periodMs: number, action: () => Promise<void>, firstDelayMs = 0): number {
    const pid = this.allocatePid();
    const now = this.now();
    this.jobs.push({ pid, command, started: now, periodMs: Math.max(1, periodMs), nextAt: now + firstDelayMs, action });
    return pid;
  }

  processes(): Process[] {
    return this.jobs.map(({ pid, command, started }) => ({ pid, command, started }));
  }

  kill(pid: number): boolean {
    const before = this.jobs.length;
    this.jobs = this.jobs.filter((j) => j.pid !== pid);
    return this.jobs.length < before;
  }

  /** Run every job that is due, oldest first. */
  async tick(): Promise<void> {
    const now = this.now();
    let runs = 0;
    for (;;) {
      let due: Job | null = null;
      for (const job of this.jobs) if (job.nextAt <= now && (due === null || job.nextAt < due.nextAt)) due = job;
      if (due === null) return;
      if (runs++ >= MAX_RUNS_PER_TICK) {
        for (const job of this.jobs) while (job.nextAt <= now) job.nextAt += job.periodMs * Math.max(1, Math.ceil((now - job.nextAt) / job.periodMs));
        return;
      }
      const at = due.nextAt;
      due.nextAt += due.periodMs;
      this.runningAt = at;
      try {
        await due.action();
      } finally {
        this.runningAt = null;
      }
    }
  }

  /** While a job runs: the simulated time it is running at (its files get this mtime). */
  runningAt: number | null = null;

  /** Move time on by `ms` (one interactive step); due jobs run at the next tick. */
  advance(ms: number): void {
    if (Number.isFinite(ms) && ms > 0) this.skipped += ms;
  }

  /** `sleep`: move time on and let due jobs run. */
  async sleep(ms: number): Promise<void> {
    if (Number.isFinite(ms) && ms > 0) this.skipped += ms;
    await this.tick();
  }

  /**
   * The time a file written now should carry. A write takes a millisecond of simulated time:
   * on Linux each write has its own nanosecond time, so files written one after another are
   * ordered (`ls -t`) and newer than the image's; here time would otherwise stand still through
   * a whole script. A job's writes carry the time it runs at.
   */
  fileTime(): number {
    if (this.runningAt !== null) return this.runningAt;
    this.skipped += WRITE_MS;
    return this.now();
  }
}
