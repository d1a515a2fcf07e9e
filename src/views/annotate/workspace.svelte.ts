/**
 * One annotator's workspace on one task: the task's sets, the annotator's draft (kept in
 * IndexedDB as it changes), the task's stored episodes, and the draft re-scored over all
 * of them whenever it changes (the live check of issue 13 §2). Shared by the task page,
 * the episode page and checking by playing.
 */
import { getAnnotationStore, type AnnotationStore, type Draft } from '../../store/annotations.ts';
import type { AnnotationFlag } from '../../store/annotationTypes.ts';
import { corpusOf, currentAnnotator, draftAsSet, emptyDraft, setsOfTask, type Corpus } from '../../lib/annotation.ts';
import { AGENTBOARD_AUTHOR, checkSubgoals, nextVersion, rescore, setKey, type Matcher, type RescoreReport, type Subgoal, type SubgoalCheck, type SubgoalSet } from '../../lib/annotationCore.ts';

export class Workspace {
  readonly env: string;
  readonly task: string;
  author: string = $state('');
  sets: SubgoalSet[] = $state.raw([]);
  draft: Draft = $state.raw(emptyDraft('', '', ''));
  corpus: Corpus = $state.raw({ records: [], prepared: [] });
  flags: AnnotationFlag[] = $state.raw([]);
  scoringSet: string | undefined = $state(undefined);
  loaded = $state(false);
  store!: AnnotationStore;

  constructor(env: string, task: string) {
    this.env = env;
    this.task = task;
  }

  async load(): Promise<this> {
    this.store = await getAnnotationStore();
    const records = await this.store.episodesOfTask(this.env, this.task);
    this.corpus = await corpusOf(records, this.env, this.task);
    await this.refreshSets();
    await this.switchAuthor(currentAnnotator());
    this.loaded = true;
    return this;
  }

  /** AgentBoard's own set of the task (version 1), if it has one. */
  get builtin(): SubgoalSet | null {
    return this.sets.find((s) => s.author === AGENTBOARD_AUTHOR && s.version === 1) ?? null;
  }

  async refreshSets(): Promise<void> {
    this.sets = await setsOfTask(this.store, this.env, this.task);
    this.flags = await this.store.listFlags(this.env, this.task);
    this.scoringSet = await this.store.getScoringSet(this.env, this.task);
  }

  private switches = 0;

  /**
   * The author and their draft change together, once the draft is read: the page names the author
   * only when a save would be theirs (the name used to change first, so an S pressed at once saved
   * the previous author's draft). Of quick successive switches, the last one wins.
   */
  async switchAuthor(author: string): Promise<void> {
    const mine = ++this.switches;
    // A newcomer starts from their own newest set, else AgentBoard's (never another annotator's: sets stay independent).
    const start = this.sets.filter((s) => s.author === author).at(-1) ?? this.sets.find((s) => s.author === AGENTBOARD_AUTHOR);
    const draft = (await this.store.getDraft(this.env, this.task, author)) ?? emptyDraft(this.env, this.task, author, start);
    if (mine !== this.switches) return;
    this.draft = draft;
    this.author = author;
  }

  /** The version the draft would be saved as. */
  get nextVersion(): number {
    return nextVersion(this.sets, this.env, this.task);
  }

  get draftSet(): SubgoalSet {
    return draftAsSet(this.draft, this.nextVersion, this.sets.find((s) => s.version === this.draft.base));
  }

  /** The draft scored over every stored episode of the task, each subgoal checked, and how long that took (read it in a $derived). */
  scored(): { report: RescoreReport; checks: SubgoalCheck[]; ms: number } {
    const set = this.draftSet;
    const t = performance.now();
    const report = rescore(set, this.corpus.prepared, this.corpus.evaluate);
    const checks = checkSubgoals(set, this.corpus.prepared, report, this.corpus.evaluate);
    return { report, checks, ms: performance.now() - t };
  }

  /** Replace the draft's subgoals at once (a checked proposal). */
  replaceSubgoals(subgoals: Subgoal[]): void {
    this.change(subgoals);
  }

  private change(subgoals: Subgoal[], extra: Partial<Draft> = {}): void {
    this.draft = { ...this.draft, ...extra, subgoals };
    void this.store.putDraft(this.draft);
  }

  add(s: Subgoal, at = this.draft.subgoals.length): void {
    const list = [...this.draft.subgoals];
    list.splice(at, 0, s);
    this.change(list);
  }

  remove(i: number): void {
    this.change(this.draft.subgoals.filter((_, k) => k !== i));
  }

  move(i: number, by: number): boolean {
    const j = i + by;
    if (j < 0 || j >= this.draft.subgoals.length) return false;
    const list = [...this.draft.subgoals];
    [list[i], list[j]] = [list[j], list[i]];
    this.change(list);
    return true;
  }

  rename(i: number, label: string): void {
    this.change(this.draft.subgoals.map((s, k) => (k === i ? { ...s, label } : s)));
  }

  setMatcher(i: number, matcher: Matcher): void {
    this.change(this.draft.subgoals.map((s, k) => (k === i ? { ...s, matcher } : s)));
  }

  /** Start the draft over from a stored set (its subgoals, with it as parent). */
  startFrom(set: SubgoalSet | null): void {
    this.draft = emptyDraft(this.env, this.task, this.author, set ?? undefined);
    void this.store.putDraft(this.draft);
  }

  /** Save the draft as the task's next version; the draft carries on from it. */
  async saveVersion(): Promise<SubgoalSet> {
    const set = this.draftSet;
    await this.store.addSet(set);
    await this.refreshSets();
    this.draft = { ...this.draft, base: set.version };
    await this.store.putDraft(this.draft);
    return set;
  }

  async chooseScoring(key: string | undefined): Promise<void> {
    await this.store.setScoringSet(this.env, this.task, key);
    this.scoringSet = key;
  }

  async addFlag(flag: Omit<AnnotationFlag, 'id' | 'envTask' | 'createdAt' | 'author'>): Promise<void> {
    await this.store.addFlag({ ...flag, id: crypto.randomUUID(), envTask: `${this.env}/${this.task}`, author: this.author, createdAt: new Date().toISOString() });
    this.flags = await this.store.listFlags(this.env, this.task);
  }

  /** Re-read the task's episodes (after playing one). */
  async reloadEpisodes(): Promise<void> {
    const records = await this.store.episodesOfTask(this.env, this.task);
    this.corpus = await corpusOf(records, this.env, this.task);
  }
}

export { setKey };
