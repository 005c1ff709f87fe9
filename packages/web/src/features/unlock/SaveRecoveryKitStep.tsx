import { useState, type ReactElement } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconFileCertificate } from '@tabler/icons-react';
import { RecoveryKitSheet } from './RecoveryKitSheet';

/** Ours: the kit could not be made right after set-up (the keys are set up either way). */
export const KIT_AFTER_SET_UP_FAILED =
  'The recovery kit could not be created. Try again, or skip and create one later on your Profile.';

interface SaveRecoveryKitStepProps {
  /** Makes the kit with the master unlock key just set up; resolves with its words. */
  createKit: () => Promise<string[]>;
  email: string | null;
  /** On to where unlocking goes, with or without a kit. */
  onFinish: () => void;
}

/** Right after set-up: offers a recovery kit before the person moves on (skippable). */
export function SaveRecoveryKitStep({ createKit, email, onFinish }: SaveRecoveryKitStepProps): ReactElement {
  const [words, setWords] = useState<string[] | null>(null);
  const [working, setWorking] = useState(false);
  const [failed, setFailed] = useState(false);

  if (words !== null) {
    return <RecoveryKitSheet words={words} email={email} doneLabel="Continue" onDone={onFinish} />;
  }

  const create = async (): Promise<void> => {
    setWorking(true);
    setFailed(false);
    try {
      setWords(await createKit());
    } catch (error) {
      console.error('Creating the recovery kit failed', error);
      setFailed(true);
    } finally {
      setWorking(false);
    }
  };

  return (
    <Stack gap="md">
      {failed && (
        <Text size="sm" c="red" role="alert">
          {KIT_AFTER_SET_UP_FAILED}
        </Text>
      )}
      <Button
        size="md"
        fullWidth
        loading={working}
        leftSection={<IconFileCertificate size={18} aria-hidden />}
        onClick={() => void create()}
        data-autofocus
        autoFocus
      >
        Create recovery kit
      </Button>
      <Button size="md" variant="subtle" color="gray" fullWidth disabled={working} onClick={onFinish}>
        Skip for now
      </Button>
      <Text size="xs" c="dimmed" ta="center">
        You can create one later on your Profile.
      </Text>
    </Stack>
  );
}
