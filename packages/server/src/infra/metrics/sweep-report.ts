/**
 * The port through which the upload sweeper reports to the metrics. It lives on the metrics side so
 * that the metrics adapter knows no business module: the module depends on the port, not the reverse.
 */

/** One sweep's outcome: how many stale uploads it aborted, or that it failed. */
export type SweepOutcome = { ok: true; swept: number } | { ok: false };

export type SweepReporter = (outcome: SweepOutcome) => void;
