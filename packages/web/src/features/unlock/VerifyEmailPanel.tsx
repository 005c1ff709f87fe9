import { useState, type ReactElement } from 'react';
import type { MeResponse } from '@coffer/contracts';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconInfoCircle, IconMailForward } from '@tabler/icons-react';
import { verifyEmailMessages } from '../../lib/auth/email-verification';
import { snackbar } from '../../lib/snackbar';
import { useConfirmVerification, useResendVerification } from './use-email-verification';

interface VerifyEmailPanelProps {
  me: MeResponse;
  /** The server now says the address is verified: go on to set up or unlock encryption. */
  onVerified: () => void;
}

/**
 * The body of the "Verify your email" screen: the exact address the mail went to, "Resend email"
 * (embedded provider only), and "I've confirmed my email", which renews the tokens and asks the
 * server again. The unlock screen's frame around it carries the title and Logout.
 */
export function VerifyEmailPanel({ me, onVerified }: VerifyEmailPanelProps): ReactElement {
  const resend = useResendVerification(me.email);
  const confirm = useConfirmVerification();
  const [problem, setProblem] = useState<string | null>(null);
  const external = !me.canResendVerification;

  const confirmed = (): void => {
    setProblem(null);
    confirm.mutate(undefined, {
      onSuccess: (outcome) => {
        switch (outcome.type) {
          case 'verified':
            snackbar.success('Your email address is confirmed.');
            onVerified();
            return;
          case 'unverified':
            setProblem(
              external ? verifyEmailMessages.stillUnverifiedExternal : verifyEmailMessages.stillUnverified,
            );
            return;
          case 'signed-out':
            // The session's token failure handler is logging out; nothing to show here.
            return;
          case 'failed':
            setProblem(verifyEmailMessages.checkFailed);
            return;
        }
      },
      onError: () => {
        setProblem(verifyEmailMessages.checkFailed);
      },
    });
  };

  // On a line of its own: the whole address, as the server has it, wrapping only when it must.
  const address = (
    <Text
      span
      display="block"
      fw={600}
      c="var(--mantine-color-text)"
      dir="ltr"
      translate="no"
      my={4}
      style={{ overflowWrap: 'anywhere', unicodeBidi: 'isolate' }}
    >
      {me.email ?? verifyEmailMessages.unknownAddress}
    </Text>
  );

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" ta="center">
        {external ? (
          <>
            {verifyEmailMessages.externalNotConfirmed} {address}
          </>
        ) : (
          <>
            {verifyEmailMessages.sentTo} {address}
            {verifyEmailMessages.sentToEnd}
          </>
        )}
      </Text>

      {external && (
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden />}>
          <Text size="sm">{verifyEmailMessages.externalHint}</Text>
        </Alert>
      )}

      {problem !== null && (
        <Alert variant="light" color="yellow" role="alert">
          <Text size="sm">{problem}</Text>
        </Alert>
      )}

      <Stack gap="sm">
        <Button
          fullWidth
          leftSection={<IconCircleCheck size={18} aria-hidden />}
          loading={confirm.isPending}
          onClick={confirmed}
        >
          {verifyEmailMessages.confirmed}
        </Button>
        {!external && (
          <Button
            fullWidth
            variant="default"
            leftSection={<IconMailForward size={18} aria-hidden />}
            loading={resend.isPending}
            onClick={() => {
              resend.mutate();
            }}
          >
            {verifyEmailMessages.resend}
          </Button>
        )}
      </Stack>

      {!external && (
        <Text size="xs" c="dimmed" ta="center">
          {verifyEmailMessages.wrongAddress}
        </Text>
      )}
    </Stack>
  );
}
