/**
 * What the play page says about its steps and its driver once something went wrong:
 * steps played but not stored, and why a watched driver stopped. Kept apart from the
 * views so the wording follows the session's state (taken over, recording failed) in one place.
 */
import type { DriverStop } from '../../runtime/drivers/common.ts';

/** The facts about this tab's recording that the wording depends on. */
export interface RecordingState {
  /** Why this tab only shows the episode (another tab drives it), or null. */
  readOnly: string | null;
  /** A write failed: steps played after it are not stored and never will be. */
  recordingFailed: boolean;
}

/** The note beside the step counter for steps played but not stored, or null when there are none. */
export function unsavedNote(played: number, stored: number, tab: RecordingState): string | null {
  if (tab.readOnly) return null;
  const unsaved = played - stored;
  if (unsaved <= 0) return null;
  return tab.recordingFailed ? `${unsaved} not saved` : `+${unsaved} saving…`;
}

/** The driver's status line after it returned (null when the episode simply finished). */
export function driverStopStatus(stop: DriverStop, tab: RecordingState): string | null {
  if (stop === 'finished') return null;
  // The driver is stopped by the recording gate in both cases below: not by the person, so no "carry on by hand".
  if (tab.readOnly) return 'Stopped: another tab took this episode over.';
  if (tab.recordingFailed) return 'Stopped: recording failed, so the driver played no further steps.';
  if (stop === 'aborted') return 'Stopped. You can carry on by hand: your steps are recorded as yours.';
  if (stop === 'no-action') return 'The driver had no action to play (the oracle has no plan from here).';
  return `The driver stopped (${stop}).`;
}
