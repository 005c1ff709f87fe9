import { useCallback, useEffect, useState } from 'react';
import {
  LinkOpenError,
  linkFailureOf,
  openLink,
  startLink,
  type LinkFailure,
  type LinkStart,
  type OpenedLink,
} from '../../lib/links/link-open';

export type LinkPageState =
  | { readonly phase: 'starting' }
  | { readonly phase: 'password'; readonly start: LinkStart; readonly wrong: boolean; readonly busy: boolean }
  | { readonly phase: 'opening' }
  | { readonly phase: 'open'; readonly link: OpenedLink }
  | { readonly phase: 'failed'; readonly failure: LinkFailure };

/**
 * A link page's steps: read the fragment, ask for the password if the link has one, open. The
 * fragment is read once, here, and never leaves this tab (no request, log or analytics carries it).
 */
export function useLinkPage(
  linkId: string,
  fragment: string,
): {
  state: LinkPageState;
  submitPassword: (password: string) => void;
  retry: () => void;
} {
  const [state, setState] = useState<LinkPageState>({ phase: 'starting' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    const set = (next: LinkPageState): void => {
      if (live) setState(next);
    };
    set({ phase: 'starting' });
    void (async () => {
      try {
        const start = await startLink(linkId, fragment);
        if (start.password !== null) {
          set({ phase: 'password', start, wrong: false, busy: false });
          return;
        }
        set({ phase: 'opening' });
        set({ phase: 'open', link: await openLink(start, null) });
      } catch (error) {
        set({ phase: 'failed', failure: linkFailureOf(error).failure });
      }
    })();
    return () => {
      live = false;
    };
  }, [linkId, fragment, attempt]);

  const submitPassword = useCallback(
    (password: string) => {
      if (state.phase !== 'password' || state.busy) return;
      const { start } = state;
      setState({ ...state, busy: true, wrong: false });
      void openLink(start, password).then(
        (link) => {
          setState({ phase: 'open', link });
        },
        (error: unknown) => {
          const failure = error instanceof LinkOpenError ? error.failure : linkFailureOf(error).failure;
          if (failure === 'wrong-password') setState({ phase: 'password', start, wrong: true, busy: false });
          else setState({ phase: 'failed', failure });
        },
      );
    },
    [state],
  );

  const retry = useCallback(() => {
    setAttempt((n) => n + 1);
  }, []);

  return { state, submitPassword, retry };
}
