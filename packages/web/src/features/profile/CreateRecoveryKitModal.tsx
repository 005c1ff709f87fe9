import { useState, type ReactElement, type SyntheticEvent } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconFileCertificate } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { validateMasterKey } from '@coffer/contracts';
import { useAppSession } from '../../session/session-context';
import { WrongOldPasswordError } from '../../lib/encryption/encryption.errors';
import { MasterKeyInput } from '../unlock/MasterKeyInput';
import { RecoveryKitSheet } from '../unlock/RecoveryKitSheet';
import { recoveryKitStatusQueryKey } from '../unlock/RecoveryOffer';

/** Ours: texts of making a kit from the profile. */
export const createKitTexts = {
  wrongKey: 'The master unlock key is not correct. No recovery kit was created.',
  failed: 'The recovery kit could not be created. Try again.',
} as const;

interface CreateRecoveryKitModalProps {
  opened: boolean;
  onClose: () => void;
  email: string | null;
}

/**
 * Makes a recovery kit: asks for the master unlock key (the kit wraps the private keys, which only
 * it opens), then shows the words once; the dialog closes only after "I have saved my recovery kit".
 */
export function CreateRecoveryKitModal({
  opened,
  onClose,
  email,
}: CreateRecoveryKitModalProps): ReactElement {
  const { encryption } = useAppSession();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [words, setWords] = useState<string[] | null>(null);

  const close = (): void => {
    setPassword('');
    setError(null);
    setWords(null);
    onClose();
  };

  const submit = async (event: SyntheticEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (working) return;
    const problem = validateMasterKey(password);
    if (problem !== null) {
      setError(problem);
      return;
    }
    setWorking(true);
    setError(null);
    try {
      const kit = await encryption.createRecoveryKit(password);
      setPassword('');
      setWords(kit.words);
      await queryClient.invalidateQueries({ queryKey: recoveryKitStatusQueryKey });
    } catch (failure) {
      if (failure instanceof WrongOldPasswordError) {
        setError(createKitTexts.wrongKey);
        setPassword('');
      } else {
        console.error('Creating the recovery kit failed', failure);
        setError(createKitTexts.failed);
      }
    } finally {
      setWorking(false);
    }
  };

  const showingWords = words !== null;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={showingWords ? 'Your recovery kit' : 'Create recovery kit'}
      centered
      size="lg"
      // The words are shown once: leaving is only by "I have saved my recovery kit".
      withCloseButton={!showingWords && !working}
      closeButtonProps={{ 'aria-label': 'Cancel' }}
      closeOnEscape={!showingWords && !working}
      closeOnClickOutside={!showingWords && !working}
    >
      {showingWords ? (
        <RecoveryKitSheet words={words} email={email} doneLabel="Done" onDone={close} />
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={working}>
          <Stack gap="md">
            <Text size="sm">
              Enter your master unlock key. The recovery kit wraps your encryption keys a second time, under
              24 words only you will have.
            </Text>
            <MasterKeyInput
              label="Master unlock key"
              autoComplete="current-password"
              value={password}
              onValue={(value) => {
                setPassword(value);
                setError(null);
              }}
              error={error}
              disabled={working}
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={working}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={working}
                leftSection={<IconFileCertificate size={16} aria-hidden />}
              >
                Create recovery kit
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
