/**
 * The global overlay: a tiny store that any code (React or not) can hold open while an operation
 * must not be interrupted. Holds nest: the overlay shows while at least one is open.
 */
export interface OverlayState {
  readonly visible: boolean;
  /** Message of the most recent hold that has one. */
  readonly message: string | undefined;
}

interface Hold {
  readonly message: string | undefined;
}

type Listener = () => void;

const HIDDEN: OverlayState = { visible: false, message: undefined };

let holds: readonly Hold[] = [];
let state: OverlayState = HIDDEN;
const listeners = new Set<Listener>();

function publish(): void {
  const withMessage = holds.findLast((hold) => hold.message !== undefined);
  state = holds.length === 0 ? HIDDEN : { visible: true, message: withMessage?.message };
  for (const listener of listeners) listener();
}

// Arrow functions: the members are passed around unbound (`useSyncExternalStore(overlay.subscribe, …)`).
export const overlay = {
  /** Shows the overlay until the returned function is called (calling it again does nothing). */
  show: (message?: string): (() => void) => {
    const hold: Hold = { message };
    holds = [...holds, hold];
    publish();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds = holds.filter((h) => h !== hold);
      publish();
    };
  },

  /** Keeps the overlay up while `work` runs. */
  during: async <T>(work: () => Promise<T>, message?: string): Promise<T> => {
    const release = overlay.show(message);
    try {
      return await work();
    } finally {
      release();
    }
  },

  /** Removes every hold (for logout and tests). */
  reset: (): void => {
    holds = [];
    publish();
  },

  getState: (): OverlayState => {
    return state;
  },

  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
