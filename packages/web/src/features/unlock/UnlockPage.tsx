import { useEffect, useRef, useState, type ReactElement } from 'react';
import { sessionStorageKeys, unlockMessages } from '@coffer/contracts';
import { Center, Divider, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { ActionButton } from '../../ui/ActionButton';
import {
  IconFileCertificate,
  IconKey,
  IconLifebuoy,
  IconLock,
  IconLogout,
  IconMailCheck,
  IconRefresh,
  IconShieldLock,
  IconShieldX,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { LogoMark } from '../../ui/Logo';
import { afterUnlockPath } from '../../lib/navigation/navigation-rules';
import { useAppSession, useAuthSnapshot, useEncryptionState } from '../../session/session-context';
import { useLogout } from '../../session/use-logout';
import {
  EncryptionSessionError,
  InvalidPasswordError,
  KeysAlreadyExistError,
  KeysNotFoundError,
  KeysTamperedError,
  UnlockFailedError,
} from '../../lib/encryption/encryption.errors';
import { snackbar } from '../../lib/snackbar';
import { setFlashMessage } from '../../lib/storage/flash-message';
import {
  isEmailNotVerified,
  needsVerification,
  verifyEmailMessages,
} from '../../lib/auth/email-verification';
import { RecoveryForm } from './RecoveryForm';
import { RecoveryOffer } from './RecoveryOffer';
import { ResetConfirmation } from './ResetConfirmation';
import { SaveRecoveryKitStep } from './SaveRecoveryKitStep';
import { useMe } from './use-email-verification';
import { VerifyEmailPanel } from './VerifyEmailPanel';
import { UnlockForm } from './UnlockForm';
import { unlockTitle, type UnlockView } from './unlock-form';
import { track } from '../../lib/analytics';
import { StateCallout } from '../../ui/StateCallout';
import type { StateLook } from '../../ui/state-look';

/** Ours: the spec quotes no text for a set-up that fails for another reason than the password. */
export const SET_UP_FAILED_MESSAGE = 'Encryption set-up failed. Please try again.';
/** Ours: a recovery with a kit succeeded (the screen then goes where unlocking goes). */
export const RECOVERED_MESSAGE = 'Encryption recovered. Your new master unlock key is set.';
/** Ours: checking the words or recovering failed for another reason than the words. */
export const RECOVERY_FAILED_MESSAGE = 'Recovery failed. Check your connection and try again.';

export const setupStatusQueryKey = ['encryption', 'setup-status'] as const;

const INTRO: Record<UnlockView, string> = {
  'set-up':
    'Choose a master unlock key. It encrypts your keys in this browser before anything reaches the server, so nobody else can read your files.',
  unlock: 'Enter your master unlock key to unlock your encryption keys in this browser.',
  reset: 'Set up encryption again with a new master unlock key.',
  'save-kit':
    'If you forget your master unlock key, a recovery kit is the only way to open your files again: 24 words to print or write down.',
  recover:
    'Enter the words of your recovery kit, then choose a new master unlock key. Your files stay as they are.',
};

const CHECK_FAILED: StateLook = { label: 'Your encryption keys could not be checked', color: 'red' };
const TAMPERED: StateLook = { label: 'Coffer refused to unlock', color: 'red', icon: IconShieldX };

const ICONS = {
  'set-up': IconShieldLock,
  unlock: IconLock,
  reset: IconKey,
  'save-kit': IconFileCertificate,
  recover: IconLifebuoy,
  verify: IconMailCheck,
} as const;

/**
 * Unlock Encryption (/unlock): set up, unlock, or reset a forgotten master unlock key (spec section 2).
 * Before any of that, a signed-in person whose email the server does not count as verified
 * (`GET /users/me`, or an EMAIL_NOT_VERIFIED answer to the keys call) gets "Verify your email".
 */
export function UnlockPage(): ReactElement {
  const session = useAppSession();
  const { encryption, flags } = session;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuthSnapshot();
  const encryptionState = useEncryptionState();
  const logout = useLogout();
  const [confirmingReset, setConfirmingReset] = useState(false);
  /** After set-up the recovery kit is offered; from the forgotten-key warning, a recovery. */
  const [stage, setStage] = useState<'form' | 'save-kit' | 'recover'>('form');
  /** The key just set up, kept only while the recovery kit is offered (making a kit needs it). */
  const setUpKey = useRef<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  /** Why the last unlock was refused because the served keys were tampered with (issue 13). */
  const [tampered, setTampered] = useState<string | null>(null);

  const me = useMe();
  const status = useQuery({
    queryKey: setupStatusQueryKey,
    queryFn: () => encryption.getSetupStatus(),
    // An unverified caller has no keys to ask for: the server would refuse with EMAIL_NOT_VERIFIED.
    enabled: me.data?.emailVerified === true,
    staleTime: 0,
    gcTime: 0,
    retry: (failureCount, error) => !isEmailNotVerified(error) && failureCount < 1,
  });
  const verifying = needsVerification(me.data) || isEmailNotVerified(status.error);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The verify screen has no field to start in: move focus to its title, so it is announced.
  useEffect(() => {
    if (verifying) titleRef.current?.focus();
  }, [verifying]);

  const nextPath = (): string => afterUnlockPath(flags.get(sessionStorageKeys.redirectAfterUnlock));

  // Spec: if encryption is already initialised, the screen redirects on.
  if (encryptionState.status === 'unlocked' && !finishing) return <Navigate to={nextPath()} replace />;

  const view: UnlockView | null = verifying
    ? null
    : stage !== 'form'
      ? stage
      : confirmingReset
        ? 'reset'
        : (status.data ?? null);
  const title = verifying
    ? verifyEmailMessages.title
    : view === null
      ? unlockMessages.unlockTitle
      : unlockTitle(view);
  const Icon = ICONS[verifying ? 'verify' : (view ?? 'unlock')];
  const checking = me.isPending || (!verifying && !me.isError && status.isPending);
  const checkFailed = me.isError || (!verifying && status.isError);

  const retryChecks = (): void => {
    void me.refetch();
    void queryClient.invalidateQueries({ queryKey: setupStatusQueryKey });
  };

  const verified = (): void => {
    // The keys call may have been refused while unverified; ask again with the new token.
    void queryClient.resetQueries({ queryKey: setupStatusQueryKey });
  };

  const submit = async (password: string): Promise<string | null> => {
    const mode = status.data ?? 'unlock';
    setFinishing(true);
    setTampered(null);
    try {
      if (mode === 'set-up') {
        await encryption.setUp(password);
        snackbar.success(unlockMessages.setUpSuccess);
        track('encryption_set_up');
        // Before moving on: the recovery kit (issue 29), while the key just typed is at hand.
        setUpKey.current = password;
        setStage('save-kit');
        return null;
      } else {
        await encryption.unlock(password);
        snackbar.success(unlockMessages.unlockSuccess);
      }
      await navigate(nextPath(), { replace: true });
      return null;
    } catch (error) {
      setFinishing(false);
      if (error instanceof UnlockFailedError) {
        snackbar.danger(unlockMessages.unlockFailed);
        return unlockMessages.unlockFailed;
      }
      if (error instanceof InvalidPasswordError) return error.message;
      if (error instanceof KeysTamperedError) {
        // The server served keys that are not this user's (issue 13): stop, and say why.
        setTampered(error.message);
        return null;
      }
      if (error instanceof KeysAlreadyExistError || error instanceof KeysNotFoundError) {
        snackbar.warning(error.message);
        await queryClient.invalidateQueries({ queryKey: setupStatusQueryKey });
        return null;
      }
      console.error('Encryption set-up or unlock failed', error);
      const message = mode === 'set-up' ? SET_UP_FAILED_MESSAGE : unlockMessages.unlockFailed;
      snackbar.danger(message);
      return null;
    }
  };

  const finishSetUp = (): void => {
    setUpKey.current = null;
    void navigate(nextPath(), { replace: true });
  };

  const createKitAfterSetUp = async (): Promise<string[]> => {
    const kit = await encryption.createRecoveryKit(setUpKey.current ?? '');
    setUpKey.current = null;
    return kit.words;
  };

  /** Recovery messages the person can act on; anything else is logged and said in general. */
  const recoveryProblem = (error: unknown): string => {
    if (error instanceof EncryptionSessionError && !(error instanceof KeysNotFoundError)) {
      return error.message;
    }
    console.error('Recovery with a recovery kit failed', error);
    return RECOVERY_FAILED_MESSAGE;
  };

  const checkWords = async (words: string): Promise<string | null> => {
    try {
      await encryption.checkRecoveryWords(words);
      return null;
    } catch (error) {
      return recoveryProblem(error);
    }
  };

  const recover = async (words: string, newPassword: string): Promise<string | null> => {
    setFinishing(true);
    setTampered(null);
    try {
      await encryption.recover(words, newPassword);
      snackbar.success(RECOVERED_MESSAGE);
      await navigate(nextPath(), { replace: true });
      return null;
    } catch (error) {
      setFinishing(false);
      if (error instanceof KeysTamperedError) {
        setTampered(error.message);
        return null;
      }
      return recoveryProblem(error);
    }
  };

  const reset = async (): Promise<void> => {
    try {
      await encryption.reset();
    } catch (error) {
      console.error('Resetting encryption failed', error);
      snackbar.danger(unlockMessages.resetFailed);
      return;
    }
    // The page reloads at once, so the message waits for the next page load.
    setFlashMessage({ message: unlockMessages.resetDone, color: 'success' });
    window.location.reload();
  };

  return (
    <Center component="section" aria-labelledby="unlock-title" py={{ base: 'md', sm: 48 }}>
      <Stack w="100%" maw={460} gap="lg">
        <Group gap="xs" justify="center">
          <LogoMark size={36} />
          <Text fw={700} fz={22} lts={-0.3}>
            Coffer
          </Text>
        </Group>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 32 }}>
          <Stack gap="lg">
            <Stack gap="xs" align="center" ta="center">
              <ThemeIcon size={52} radius="xl" variant="light" color={view === 'reset' ? 'red' : 'coffer'}>
                <Icon size={26} stroke={1.7} aria-hidden />
              </ThemeIcon>
              <Title
                order={1}
                fz={26}
                id="unlock-title"
                ref={titleRef}
                tabIndex={-1}
                style={{ outline: 'none' }}
              >
                {title}
              </Title>
              {view !== null && (
                <Text c="dimmed" size="sm">
                  {INTRO[view]}
                </Text>
              )}
            </Stack>

            {verifying && me.data !== undefined && <VerifyEmailPanel me={me.data} onVerified={verified} />}
            {checking && (
              <Center py="lg" role="status" aria-label="Checking your encryption keys">
                <Loader />
              </Center>
            )}
            {checkFailed && (
              <StateCallout
                look={CHECK_FAILED}
                reason="Check your connection and try again."
                actions={[{ label: 'Try again', icon: IconRefresh, onClick: retryChecks }]}
              />
            )}
            {tampered !== null && <StateCallout look={TAMPERED} reason={tampered} />}
            {view === 'reset' && (
              <RecoveryOffer
                onUseKit={() => {
                  setStage('recover');
                }}
              />
            )}
            {view === 'save-kit' && (
              <SaveRecoveryKitStep
                createKit={createKitAfterSetUp}
                email={user?.email ?? null}
                onFinish={finishSetUp}
              />
            )}
            {view === 'recover' && (
              <RecoveryForm
                onCheckWords={checkWords}
                onRecover={recover}
                onBack={() => {
                  setStage('form');
                }}
              />
            )}
            {view === 'reset' && (
              <ResetConfirmation
                onCancel={() => {
                  setConfirmingReset(false);
                }}
                onConfirm={reset}
              />
            )}
            {(view === 'set-up' || view === 'unlock') && (
              <UnlockForm
                key={view}
                mode={view}
                onSubmit={submit}
                onForgotKey={
                  view === 'unlock'
                    ? () => {
                        setConfirmingReset(true);
                      }
                    : undefined
                }
              />
            )}

            <Divider />
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed" truncate="end" miw={0} style={{ flex: 1 }}>
                {user?.email !== null && user?.email !== undefined
                  ? `Signed in as ${user.email}`
                  : 'Signed in'}
              </Text>
              <ActionButton
                variant="subtle"
                color="gray"
                size="sm"
                icon={IconLogout}
                onClick={logout}
                style={{ flexShrink: 0 }}
              >
                {unlockMessages.logout}
              </ActionButton>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}
