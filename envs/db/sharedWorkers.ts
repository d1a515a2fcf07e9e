/**
 * DB workers shared by the episodes open at once (the browser's pool and the CLI's;
 * platform-neutral: it is given a way to start a worker channel). Starting a worker costs far
 * more than opening a database in a live one (in Chromium on a busy 2-core machine, hundreds of
 * ms against a few), so an episode opens its database in a warm worker: an idle one if there is
 * one, else one that holds other episodes' databases (each database has its own number in the
 * worker), and a spare worker is started behind it for the next episode.
 *
 * A shared worker answers one request at a time; each episode's time limit counts from when its
 * request is handed to the worker (`dispatched`), so a statement is never stopped for waiting
 * behind another episode's. When an episode's statement runs away, its executor ends the whole
 * worker: the other episodes in it lose nothing visible. Each of them is reopened in another
 * worker by replaying its own completed requests (the same statements in the same order give
 * the same database), before its next request is sent, and its executor never learns of it.
 *
 * What the databases in one worker share: sql.js's heap limit (engine.ts; 128 MB for all of
 * them) and its in-memory file system, which only ATTACH or VACUUM INTO would write (the MySQL
 * dialect refuses both): a worker where one is tried takes no further episodes.
 */
import type { DbHost, HostRequest, HostResponse, WorkerChannel } from './service.ts';

export interface SharedWorkersOptions {
  /** Starts one worker: the channel to a worker running the DB service (service.ts). */
  start(): WorkerChannel;
  /** Workers kept at most (idle or holding databases; default 4). */
  maxWorkers?: number;
  /** Databases one worker takes while there is room for another worker (default 8). */
  perWorker?: number;
  /** Quiet time after the last episode opened before a spare worker is started (default 200 ms). */
  spareAfterMs?: number;
  /** Limit for a request the pool sends itself (a new worker's readiness, replaying into another worker; default 30000 ms). */
  internalTimeoutMs?: number;
}

/** Statements that can leave a file behind in the worker's sql.js file system. */
const WRITES_FILES = /\b(ATTACH|VACUUM)\b/i;

/** Moves to another worker one episode may make before its requests fail instead. */
const MAX_MOVES = 3;

interface Job {
  /** The database the request acts on (null: the worker itself, `ready`). */
  session: Session | null;
  req: HostRequest;
  /** A request of the pool's own (readiness, replay): not the episode's, and not recorded again. */
  internal: boolean;
  resolve(res: HostResponse): void;
  reject(err: Error): void;
  dispatched?: () => void;
}

class PooledWorker {
  readonly sessions = new Set<Session>();
  readonly queue: Job[] = [];
  busy: Job | null = null;
  busyId = 0;
  nextId = 1;
  ready = false;
  dead = false;
  /** Took a statement that may write a file: no further episodes. */
  tainted = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  constructor(readonly channel: WorkerChannel) {}
}

class Session {
  /** What rebuilds this database elsewhere: its open and the statements that completed since, in order. */
  log: HostRequest[] = [];
  dead = false;
  moves = 0;
  constructor(
    readonly key: number,
    public worker: PooledWorker,
  ) {}
}

/** How many workers the episodes share on a machine with `cores` cores: one a core, at least two, at most four (the browser's pool and the CLI's). */
export function workersFor(cores: number): number {
  return Math.min(4, Math.max(2, cores));
}

export class SharedDbWorkers {
  private readonly workers: PooledWorker[] = [];
  private nextKey = 1;
  /** Workers started so far. */
  started = 0;
  private readonly maxWorkers: number;
  private readonly perWorker: number;
  private readonly internalTimeoutMs: number;
  private readonly spareAfterMs: number;
  private spareTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: SharedWorkersOptions) {
    this.maxWorkers = Math.max(1, options.maxWorkers ?? 4);
    this.perWorker = Math.max(1, options.perWorker ?? 8);
    this.internalTimeoutMs = options.internalTimeoutMs ?? 30000;
    this.spareAfterMs = options.spareAfterMs ?? 200;
  }

  /** How many databases each live worker holds (tests, figures). */
  loads(): number[] {
    return this.workers.map((w) => w.sessions.size);
  }

  /**
   * Starts an idle worker now if there is none (and room for one), so the next episode finds it
   * warm. Not while another is starting (two starts at once slow the first episode's down); a
   * worker that becomes ready calls this again.
   */
  warm(): void {
    const live = this.workers.filter((w) => !w.tainted);
    if (live.some((w) => w.sessions.size === 0 || !w.ready) || this.workers.length >= this.maxWorkers) return;
    this.startWorker();
  }

  /** A host for one new database, in the warmest worker with room (see the module comment). */
  host(): DbHost {
    const session = new Session(this.nextKey++, this.pick());
    session.worker.sessions.add(session);
    this.warmLater();
    const end = (): void => this.end(session);
    return {
      queues: true,
      request: (req, dispatched) => {
        if (session.dead) return Promise.reject(new Error('the database worker was stopped'));
        if (req.op === 'exec' && WRITES_FILES.test(req.sql)) session.worker.tainted = true;
        return new Promise<HostResponse>((resolve, reject) => {
          this.enqueue(session.worker, {
            session,
            req,
            internal: false,
            dispatched,
            reject,
            resolve: (res) => {
              if (res.ok && req.op === 'open') session.log = [req];
              else if (res.ok && req.op === 'exec') session.log.push(req);
              resolve(res);
            },
          });
        });
      },
      terminate: end,
      release: end,
    };
  }

  /**
   * A spare is started once episodes stop opening for a moment: started during a burst of resets
   * (a page opening several episodes at once), it would take the CPU they need, and they share
   * a warm worker meanwhile.
   */
  private warmLater(): void {
    clearTimeout(this.spareTimer);
    this.spareTimer = setTimeout(() => this.warm(), this.spareAfterMs);
    // In Node, a spare yet to start does not hold the process open (the CLI exits when its episodes are done).
    (this.spareTimer as { unref?: () => void }).unref?.();
  }

  /** End every worker and every database in them (tests). */
  clear(): void {
    clearTimeout(this.spareTimer);
    for (const worker of [...this.workers]) {
      for (const session of worker.sessions) session.dead = true;
      this.kill(worker, null, 'the database worker was stopped');
    }
  }

  private pick(): PooledWorker {
    const live = this.workers.filter((w) => !w.tainted);
    const order = (a: PooledWorker, b: PooledWorker) => Number(b.ready) - Number(a.ready) || a.sessions.size - b.sessions.size;
    const sorted = [...live].sort(order);
    const idle = sorted.find((w) => w.ready && w.sessions.size === 0);
    if (idle) return idle;
    const roomy = sorted.find((w) => w.sessions.size < this.perWorker);
    if (roomy && (roomy.ready || this.workers.length >= this.maxWorkers || roomy.sessions.size === 0 || !sorted.some((w) => w.ready))) return roomy;
    if (this.workers.length < this.maxWorkers) return this.startWorker();
    return sorted[0] ?? this.startWorker();
  }

  private startWorker(): PooledWorker {
    const worker = new PooledWorker(this.options.start());
    this.started++;
    this.workers.push(worker);
    worker.channel.onMessage((message) => {
      if (worker.dead || !worker.busy || message.id !== worker.busyId) return;
      const job = worker.busy;
      worker.busy = null;
      clearTimeout(worker.timer);
      job.resolve(message.res);
      this.pump(worker);
    });
    worker.channel.onError((why) => this.kill(worker, worker.busy?.session ?? null, `the database worker failed: ${why}`));
    this.enqueue(worker, {
      session: null,
      req: { op: 'ready' },
      internal: true,
      resolve: (res) => {
        if (!res.ok) return;
        worker.ready = true;
        this.warmLater();
      },
      reject: () => {},
    });
    return worker;
  }

  private enqueue(worker: PooledWorker, job: Job): void {
    worker.queue.push(job);
    this.pump(worker);
  }

  /** Sends the next request when the worker is free. */
  private pump(worker: PooledWorker): void {
    if (worker.dead || worker.busy) return;
    const job = worker.queue.shift();
    if (!job) {
      if (worker.tainted && worker.sessions.size === 0) this.kill(worker, null, 'the database worker was stopped');
      return;
    }
    worker.busy = job;
    worker.busyId = worker.nextId++;
    // A request of the pool's own gets a time limit here; an episode's request gets its executor's.
    if (job.internal) worker.timer = setTimeout(() => this.kill(worker, job.session, 'the database worker did not answer'), this.internalTimeoutMs);
    job.dispatched?.();
    try {
      worker.channel.post({ id: worker.busyId, req: job.req, db: job.session?.key });
    } catch (err) {
      this.kill(worker, job.session, err instanceof Error ? err.message : String(err));
    }
  }

  /** The episode is done with its database (or its executor ends it): close it, or end the worker if its statement is running. */
  private end(session: Session): void {
    if (session.dead) return;
    session.dead = true;
    const worker = session.worker;
    if (worker.busy?.session === session && !worker.busy.internal) {
      // Its statement may be running away: only ending the worker stops it.
      this.kill(worker, session, 'the database worker was stopped');
      return;
    }
    const stopped = new Error('the database worker was stopped');
    for (const job of this.takeJobs(worker, session)) job.reject(stopped);
    worker.sessions.delete(session);
    this.enqueue(worker, { session, req: { op: 'close' }, internal: true, resolve: () => {}, reject: () => {} });
  }

  /** Removes the session's queued requests from the worker's queue, in order. */
  private takeJobs(worker: PooledWorker, session: Session): Job[] {
    const mine = worker.queue.filter((job) => job.session === session);
    for (let i = worker.queue.length - 1; i >= 0; i--) if (worker.queue[i].session === session) worker.queue.splice(i, 1);
    return mine;
  }

  /**
   * Ends a worker. `culprit` (whose request was running, or who asked) has its requests failed,
   * as an unshared worker's would; every other database in it moves to another worker.
   */
  private kill(worker: PooledWorker, culprit: Session | null, why: string): void {
    if (worker.dead) return;
    worker.dead = true;
    clearTimeout(worker.timer);
    this.workers.splice(this.workers.indexOf(worker), 1);
    worker.channel.terminate();
    const busy = worker.busy;
    worker.busy = null;
    const error = new Error(why);
    if (busy && (busy.session === culprit || busy.session === null)) busy.reject(error);
    else if (busy) worker.queue.unshift(busy); // another episode's pool request (a replay): moved with it
    const wasReady = worker.ready;
    for (const session of [...worker.sessions]) {
      const jobs = this.takeJobs(worker, session);
      worker.sessions.delete(session);
      if (session === culprit || session.dead || !wasReady || session.moves >= MAX_MOVES) {
        session.dead = true;
        for (const job of jobs) job.reject(error);
      } else this.move(session, jobs);
    }
    for (const job of worker.queue.splice(0)) job.reject(error);
  }

  /** Reopens the session's database in another worker, then sends its waiting requests there. */
  private move(session: Session, jobs: Job[]): void {
    session.moves++;
    const target = this.pick();
    session.worker = target;
    target.sessions.add(session);
    const fail = (res: HostResponse) => {
      if (res.ok) return;
      // The replay itself failed: the episode's requests fail, and its executor rebuilds as after a crash.
      session.dead = true;
      for (const job of this.takeJobs(target, session)) job.reject(new Error('the database could not be moved to another worker'));
      target.sessions.delete(session);
      this.enqueue(target, { session, req: { op: 'close' }, internal: true, resolve: () => {}, reject: () => {} });
    };
    for (const req of session.log) this.enqueue(target, { session, req, internal: true, resolve: fail, reject: () => {} });
    for (const job of jobs) if (!job.internal) this.enqueue(target, job);
  }
}
