import { useRef, useState, type SyntheticEvent } from 'react';
import { useShownErrors, type ShownErrors } from './use-shown-errors';

/** What the master unlock key forms share: the submit with spec section 5's checks, and its state. */
export interface KeyForm<F extends string> {
  working: boolean;
  /** The message the last submit ended with, or null. */
  submitError: string | null;
  setSubmitError: (message: string | null) => void;
  shown: ShownErrors<F>;
  /** The ref of `field`'s input, so a submit can move the focus to it. */
  inputRef: (field: F) => (input: HTMLInputElement | null) => void;
  focus: (field: F) => void;
  /**
   * Submits: shows every message and focuses the first field (in the form's order) that has one, or
   * runs `run` while `working` is true. A submit while one runs is ignored.
   */
  submit: (event: SyntheticEvent<HTMLFormElement>, run: () => Promise<void>) => Promise<void>;
}

/** `order` lists the fields as the form shows them; `errors` are the current values' messages. */
export function useKeyForm<F extends string>(
  order: readonly F[],
  errors: Partial<Record<F, string>>,
): KeyForm<F> {
  const [working, setWorking] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const shown = useShownErrors<F>(errors);
  const inputs = useRef<Partial<Record<F, HTMLInputElement | null>>>({});
  const focus = (field: F): void => {
    inputs.current[field]?.focus();
  };
  return {
    working,
    submitError,
    setSubmitError,
    shown,
    inputRef: (field) => (input) => {
      inputs.current[field] = input;
    },
    focus,
    submit: async (event, run) => {
      event.preventDefault();
      if (working) return;
      shown.attempt();
      setSubmitError(null);
      const first = order.find((field) => errors[field] !== undefined);
      if (first !== undefined) {
        focus(first);
        return;
      }
      setWorking(true);
      try {
        await run();
      } finally {
        setWorking(false);
      }
    },
  };
}
