import type { MeResponse } from '@coffer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useAppSession } from '../../session/session-context';
import { useApiClient } from '../../lib/api/context';
import { usersApi } from '../../lib/api/endpoints';
import {
  confirmVerification,
  meQueryKey,
  resendErrorMessage,
  verifyEmailMessages,
  type ConfirmOutcome,
} from '../../lib/auth/email-verification';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { snackbar } from '../../lib/snackbar';

/** GET /users/me: who the server takes the caller to be (always fresh: verification changes it). */
export function useMe(): UseQueryResult<MeResponse> {
  const api = useApiClient();
  return useQuery({
    queryKey: meQueryKey,
    queryFn: () => usersApi.me(api),
    staleTime: 0,
    retry: retryUnlessClientError,
  });
}

/** POST /users/me/verification-email, with its snackbars. */
export function useResendVerification(email: string | null): UseMutationResult<unknown, Error, void> {
  const api = useApiClient();
  return useMutation({
    mutationFn: () => usersApi.resendVerificationEmail(api),
    onSuccess: () => {
      snackbar.success(verifyEmailMessages.resendSuccess(email));
    },
    onError: (error) => {
      snackbar.danger(resendErrorMessage(error));
    },
  });
}

/** "I've confirmed my email": renews the tokens, then reads /users/me into the cache. */
export function useConfirmVerification(): UseMutationResult<ConfirmOutcome, Error, void> {
  const api = useApiClient();
  const { auth } = useAppSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      confirmVerification({
        renewTokens: () => auth.renewTokens(),
        fetchMe: () =>
          queryClient.query({ queryKey: meQueryKey, queryFn: () => usersApi.me(api), staleTime: 0 }),
      }),
  });
}
