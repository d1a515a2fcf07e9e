/**
 * What an environment gives the app besides its rules: its visual view, its keys, its
 * options and its in-browser benchmark. Each environment's `ui.ts` exports one EnvUi;
 * the catalogue loads it lazily (with the environment's chunk), so the shared views
 * (play, replay, watch, catalogue, bench) never name an environment.
 */
import type { Component } from 'svelte';
import type { ObservedStep, TaskInfo, ViewKind } from './types.ts';

/** What every visual view is given: the live or replayed state of one episode. */
export interface EnvViewProps<S = any, T extends TaskInfo = any> {
  /** The environment's state (undefined while loading, and in replays of environments that cannot be re-simulated). */
  state: S | undefined;
  /** The state before the last step, so a view can mark what the step changed. */
  previousState?: S;
  task: T;
  steps: readonly ObservedStep[];
  observation: string;
  initialObservation: string;
  /** 'full' shows more than the agent sees (for annotators and demos); only for environments with `fullMap`. */
  view: Exclude<ViewKind, 'text'>;
  /** Views with their own inputs (a SQL console, a terminal) act through this; absent in replays and while a driver plays. */
  onAct?: (text: string) => void;
  disabled: boolean;
}

/** One row of a key legend. */
export interface KeyHint {
  keys: string;
  does: string;
}

export interface EnvUi {
  View: Component<EnvViewProps>;
  /** Keyboard play: the action text a key sends given the current actions, or null when the key is not the environment's. */
  keymap?: (key: string, actions: readonly string[]) => string | null;
  /** The environment's own keys, for the play view's legend. */
  keyHints?: readonly KeyHint[];
  /**
   * Actions a number key takes only when pressed twice (they end the episode, e.g. the OS's
   * answer and finish): the first press says so, any other key cancels. Buttons act at once.
   */
  asksFirst?: (action: string) => boolean;
  /**
   * The visual view offers the valid actions itself (ALFWorld: grouped by verb, with a search), so
   * the play view shows no button per action under it (nor number keys), only the free text and the
   * keys; the text view keeps them. That bar then stays in the page's flow (never over the view's
   * commands), and the view marks its commands' region with a `data-view-actions` attribute.
   */
  actionsInView?: boolean;
  /** The environment can show the whole map (more than the agent sees). */
  fullMap?: boolean;
  /** Settings on the environment's catalogue card (e.g. the OS shell). `notify` tells the person something later. */
  Options?: Component<{ notify: (message: string) => void }>;
  /** Runs once when the app first loads this module, before any episode of the environment starts (e.g. apply a saved setting). */
  init?: (app: { notify: (message: string) => void }) => void | Promise<void>;
  /** Run this tab's next episodes on one of the environment's backends (EnvDefinition.backends), e.g. a study task's choice. */
  useBackend?: (id: string, app: { notify: (message: string) => void }) => Promise<void>;
  /** What a step changed, in a few lines of text (PDDL facts added/removed, grid cells, rows), for the replay; without it the replay shows the observation's changed lines. */
  diff?: (before: any, after: any, task: any) => string | null;
  /** Figures measured in the browser by #/bench (`npm run bench` opens it in headless Chromium). */
  browserBench?: () => Promise<Record<string, number | string>>;
}
