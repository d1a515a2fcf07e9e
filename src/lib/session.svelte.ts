/**
 * A play session: one episode actor, its recorder, and the reactive state the
 * play view renders. New episodes and resumed ones (recorded actions replayed
 * through a fresh machine with the same seed) both end up here.
 */
import { getTask } from '../../envs/index.ts';
import { loadEnvWithTasks as loadEnv } from './importedTasks.ts';
import { startEpisode, stopEpisode, whenIdle } from '../../envs/core/runner.ts';
import type { EpisodeActor, EpisodeSnapshot, HistoryEntry } from '../../envs/core/episode.ts';
import type { Actor, EnvDefinition, TaskInfo, ViewKind } from '../../envs/core/types.ts';
import { episodeHeader, type DriverInfo, type EpisodeHeader, type EpisodeRecord, type StepRecord } from '../../runtime/records.ts';
import { attachRecorder, type Recorder, type RecorderOptions } from './recorder.ts';
import { holdEpisode, type EpisodeLock } from './episodeLock.ts';
import { getStore } from './storeInstance.ts';
import { loadUi } from './envUi.ts';
import { freePlayFields } from '../studies/participant.ts';
import { StepGate } from '../../runtime/drivers/common.ts';

export type { EpisodeSnapshot };

/** What a study adds to an episode: header fields (participant, attempt, practice, study) and per-step facts (timing). */
export interface SessionExtras {
  header?: Partial<Pick<EpisodeHeader, 'participant' | 'participantSource' | 'attempt' | 'practice' | 'study'>>;
  decorateStep?: (record: StepRecord) => StepRecord;
}

export class PlaySession {
  readonly env: EnvDefinition;
  readonly task: TaskInfo;
  readonly episodeId: string;
  readonly seed: number;
  snapshot: EpisodeSnapshot = $state.raw(undefined as unknown as EpisodeSnapshot);
  view: ViewKind = $state('text');
  /** A message for the player (recording failure, a resumed episode that diverged, ...). */
  notice: string | null = $state(null);
  /** The episode is in the store (from its first step on; a resumed one always is). */
  stored = $state(false);
  /** Steps committed to the store: what the page may show as played (later ones are still being saved). */
  storedSteps = $state(0);
  /** Why this tab only shows the episode (another tab drives it), or null when this tab drives it. */
  readOnly: string | null = $state(null);
  /** A write to the store failed: later steps are not stored (the driver stops, the counter says so). */
  recordingFailed = $state(false);
  private actor: EpisodeActor;
  private recorder: Recorder | null = null;
  private lock: EpisodeLock | null = null;
  private readonly maxSteps: number | undefined;
  /** The recorder's options other than the header and what is already stored. */
  private recording: Omit<RecorderOptions, 'store' | 'header' | 'alreadyRecorded'> | null = null;

  private constructor(env: EnvDefinition, task: TaskInfo, seed: number, episodeId: string, view: ViewKind, maxSteps?: number) {
    this.env = env;
    this.task = task;
    this.seed = seed;
    this.episodeId = episodeId;
    this.view = view;
    this.maxSteps = maxSteps;
    this.actor = this.freshActor();
  }

  private freshActor(): EpisodeActor {
    const actor = startEpisode(this.env, this.task, { seed: this.seed, maxSteps: this.maxSteps });
    this.snapshot = actor.getSnapshot();
    actor.subscribe({ next: (s) => this.actor === actor && (this.snapshot = s), error: () => {} });
    return actor;
  }

  private async record(alreadyRecorded: number, header?: EpisodeHeader): Promise<void> {
    this.storedSteps = alreadyRecorded;
    this.recorder = attachRecorder(this.actor, {
      ...this.recording!,
      store: await getStore(),
      header,
      alreadyRecorded,
      onStored: (n) => (this.storedSteps = n),
    });
  }

  private recordingError(message: string): void {
    this.notice = message;
    this.recordingFailed = true;
  }

  /** Hold the episode's lock ('try': null if another tab has it); losing it later makes this tab read-only. */
  private hold(mode: 'try' | 'take'): Promise<EpisodeLock | null> {
    return holdEpisode(this.episodeId, mode, { onTakenOver: () => this.handOver() });
  }

  /** Another tab takes the episode: stop taking steps, store what was played, then let the lock go. */
  private async handOver(): Promise<void> {
    this.readOnly = TAKEN_OVER;
    const recorder = this.recorder;
    this.recorder = null;
    recorder?.stop();
    await recorder?.flushed();
    this.lock = null;
  }

  /** Start and record a new episode; `driver` says who plays it (a person unless given). */
  static async start(
    envId: string,
    taskId: string,
    seed: number,
    view: ViewKind,
    driver: DriverInfo = { kind: 'human' },
    branch?: { from: EpisodeRecord; step: number },
    extras: SessionExtras = {},
  ): Promise<PlaySession> {
    const [env] = await Promise.all([loadEnv(envId), loadUi(envId)]);
    const task = getTask(env, taskId);
    const session = new PlaySession(env, task, seed, crypto.randomUUID(), view, branch?.from.header.maxSteps);
    const startedAt = new Date().toISOString();
    let ready = await whenIdle(session.actor);
    if (branch) {
      // A hand-off: replay the other episode's first steps, with the actors who took them, then carry on here.
      await replaySteps(session.actor, branch.from.steps.slice(0, branch.step));
      ready = session.actor.getSnapshot();
    }
    const header = episodeHeader(ready.context, {
      id: session.episodeId,
      driver,
      view,
      appVersion: __APP_VERSION__,
      startedAt,
      branch: branch ? { episodeId: branch.from.header.id, step: branch.step } : undefined,
    });
    // A person playing outside a study is this browser's pseudonymous participant (settings page).
    const store = await getStore();
    if (extras.header) Object.assign(header, extras.header);
    else if (driver.kind === 'human') Object.assign(header, await freePlayFields(taskId, () => store.listEpisodes()));
    session.recording = {
      decorateStep: extras.decorateStep,
      episodeId: session.episodeId,
      currentView: () => session.view,
      onError: (m) => session.recordingError(m),
      onCreated: () => (session.stored = true),
      stepExtras: await subgoalProgressFor(envId, taskId, () => ready.context.initialObservation),
    };
    session.lock = await session.hold('try'); // a new id: no other tab has it
    await session.record(0, header);
    return session;
  }

  /** Rebuild an unfinished episode by replaying its recorded actions, then keep recording into it. */
  static async resume(record: EpisodeRecord, extras: Pick<SessionExtras, 'decorateStep'> = {}): Promise<PlaySession> {
    const { header, steps } = record;
    const [env] = await Promise.all([loadEnv(header.env), loadUi(header.env)]);
    const task = getTask(env, header.task);
    const lastView = steps.length > 0 ? steps[steps.length - 1].view : header.view;
    const session = new PlaySession(env, task, header.seed, header.id, lastView, header.maxSteps);
    session.recording = {
      episodeId: header.id,
      decorateStep: extras.decorateStep,
      currentView: () => session.view,
      onError: (m) => session.recordingError(m),
      stepExtras: await subgoalProgressFor(header.env, header.task, () => header.initialObservation),
    };
    session.stored = true;
    session.lock = await session.hold('try');
    // Holding the episode, read it again: a tab that held it a moment ago may have stored more since.
    const latest = session.lock ? ((await (await getStore()).getEpisode(header.id)) ?? record) : record;
    const current = latest.steps;
    session.storedSteps = current.length;
    const diverged = await replaySteps(session.actor, current);
    if (diverged > 0) session.notice = divergedNotice(diverged);
    if (!session.lock) session.readOnly = OPEN_ELSEWHERE;
    else if (latest.header.outcome) {
      session.lock.release();
      session.lock = null;
      session.readOnly = ENDED_ELSEWHERE;
    } else await session.record(current.length);
    return session;
  }

  /** Read-only because another tab drives the episode (not because it ended or is gone): it can be taken over. */
  get canTakeOver(): boolean {
    return this.readOnly === OPEN_ELSEWHERE || this.readOnly === TAKEN_OVER;
  }

  /**
   * Drive this episode from this tab: the tab holding it stores what it played and lets go,
   * then the episode is rebuilt here from what is stored and recording carries on.
   */
  async takeOver(): Promise<void> {
    if (!this.canTakeOver) return;
    this.notice = null;
    const lock = await this.hold('take');
    const record = await (await getStore()).getEpisode(this.episodeId);
    if (!record || record.header.outcome) {
      lock?.release();
      this.readOnly = record ? ENDED_ELSEWHERE : 'This episode is no longer stored in this browser.';
      return;
    }
    this.lock = lock;
    stopEpisode(this.actor);
    this.actor = this.freshActor();
    const diverged = await replaySteps(this.actor, record.steps);
    if (diverged > 0) this.notice = divergedNotice(diverged);
    await this.record(record.steps.length);
    this.readOnly = null;
  }

  /**
   * Resolves true once the store has nearly caught up with the steps played (a fast driver
   * awaits it before each action, so a closed tab loses at most a step or two); false when this
   * tab no longer records the episode (taken over, failed, disposed): the driver should stop.
   */
  room(): Promise<boolean> {
    return this.recorder && !this.readOnly ? this.recorder.room() : Promise.resolve(false);
  }

  /** The episode actor, for drivers that send ACT themselves (model, random, oracle). */
  get episode(): EpisodeActor {
    return this.actor;
  }

  get busy(): boolean {
    return this.snapshot.hasTag('busy');
  }

  get finished(): boolean {
    return this.snapshot.status === 'done';
  }

  /** Who a person's own steps are recorded as. */
  person: Actor = { kind: 'human' };

  /** Called as a person sends an action (a study notes when it was sent). */
  onAct: ((text: string) => void) | null = null;

  act(text: string): void {
    if (this.readOnly) return;
    this.onAct?.(text);
    this.actor.send({ type: 'ACT', text, actor: this.person, view: this.view });
  }

  checkValidActions(): void {
    this.actor.send({ type: 'CHECK_VALID_ACTIONS' });
  }

  giveUp(): void {
    this.actor.send({ type: 'GIVE_UP' });
  }

  /** Resolves when every step so far is stored (used before leaving the page in tests and on finish). */
  flushed(): Promise<void> {
    return this.recorder?.flushed() ?? Promise.resolve();
  }

  dispose(): void {
    this.recorder?.stop();
    stopEpisode(this.actor);
    this.lock?.release();
    this.lock = null;
  }
}

/**
 * A watched run's step gate that also holds the driver back until the recorder has nearly
 * caught up (PlaySession.room), and stops it when this tab no longer records the episode.
 */
export class RecordingGate extends StepGate {
  /** `pausedBy`: a gate shared by several episodes (a batch's pause) that this one also waits on. */
  constructor(
    private readonly session: () => Pick<PlaySession, 'room'> | null,
    private readonly pausedBy?: StepGate,
  ) {
    super();
  }

  override async wait(signal?: AbortSignal): Promise<boolean> {
    const session = this.session();
    if (session && !(await session.room())) return false;
    return this.pausedBy ? this.pausedBy.wait(signal) : super.wait(signal);
  }
}

const OPEN_ELSEWHERE = 'This episode is open in another tab. It is shown here read-only; take it over to play on here (the other tab stops).';
const ENDED_ELSEWHERE = 'This episode ended in another tab: open it from All episodes to replay it.';
const TAKEN_OVER = 'This episode was taken over by another tab. Everything played here is saved; it is shown read-only.';

const divergedNotice = (diverged: number): string =>
  `Replaying the recorded actions gave ${diverged} different observation(s): this build's environment differs from the one that recorded them.`;

/** Progress under the task's chosen subgoal set, when one is chosen (issue 13; loaded lazily, never stops recording). */
function subgoalProgressFor(env: string, task: string, initial: () => string) {
  return import('./progressUnderSet.ts').then((m) => m.progressRecorder(env, task, initial)).catch(() => undefined);
}

/**
 * Send recorded steps again, each with the actor and view it was recorded with (the
 * episode is rebuilt exactly, who-did-what included); returns how many observations differ.
 */
async function replaySteps(actor: EpisodeActor, steps: EpisodeRecord['steps']): Promise<number> {
  let diverged = 0;
  let snapshot = await whenIdle(actor);
  for (const step of steps) {
    if (snapshot.status !== 'active') break;
    const before = snapshot.context.history.length;
    const facts: { actor: Actor; view: ViewKind; model?: HistoryEntry['model'] } = { actor: step.actor, view: step.view };
    if (step.model) facts.model = step.model;
    actor.send({ type: 'ACT', text: step.action, ...facts });
    snapshot = await whenIdle(actor);
    const entry = snapshot.context.history[before];
    if (entry && entry.observation !== step.observation) diverged++;
  }
  return diverged;
}

export type { EpisodeHeader };
