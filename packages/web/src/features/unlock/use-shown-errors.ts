import { useState } from 'react';

/**
 * When a form's messages show: a field's once it has been left with something in it, every field's
 * once the form was submitted (as on the unlock screen).
 */
export interface ShownErrors<F extends string> {
  /** The message to show at `field` now, or null. */
  shown: (field: F) => string | null;
  /** The field was left: show its message from now on, if it has a value. */
  leave: (field: F, value: string) => void;
  /** The form was submitted: show every message. */
  attempt: () => void;
  /** Back to a fresh form (after a failed submit cleared the values). */
  reset: () => void;
}

export function useShownErrors<F extends string>(errors: Partial<Record<F, string>>): ShownErrors<F> {
  const [touched, setTouched] = useState<ReadonlySet<F>>(new Set());
  const [attempted, setAttempted] = useState(false);
  return {
    shown: (field) => {
      const error = errors[field];
      return error !== undefined && (attempted || touched.has(field)) ? error : null;
    },
    leave: (field, value) => {
      if (value !== '' && !touched.has(field)) setTouched((previous) => new Set(previous).add(field));
    },
    attempt: () => {
      setAttempted(true);
    },
    reset: () => {
      setAttempted(false);
      setTouched(new Set());
    },
  };
}
