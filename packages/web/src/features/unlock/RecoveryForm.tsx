import { useRef, useState, type ReactElement, type SyntheticEvent } from 'react';
import { Button, Group, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { ActionButton } from '../../ui/ActionButton';
import { IconArrowLeft, IconCheck, IconLockOpen } from '@tabler/icons-react';
import { NewKeyFields } from './NewKeyFields';
import { validateUnlockForm, type UnlockFormValues } from './unlock-form';
import { useKeyForm } from './use-key-form';

/** Ours: the words field left empty. */
export const WORDS_REQUIRED = 'Enter the 24 words of your recovery kit.';

interface RecoveryFormProps {
  /** Checks the words against the kit the server holds; resolves with a message, or null. */
  onCheckWords: (words: string) => Promise<string | null>;
  /** Recovers and unlocks; resolves with a message to show, or null (the page moves on). */
  onRecover: (words: string, newPassword: string) => Promise<string | null>;
  onBack: () => void;
}

/**
 * Recovery with a kit: the 24 words first (checked before anything else is asked), then a new master
 * unlock key with its confirmation (spec section 5's rules and messages).
 */
export function RecoveryForm({ onCheckWords, onRecover, onBack }: RecoveryFormProps): ReactElement {
  const [step, setStep] = useState<'words' | 'new-key'>('words');
  const [words, setWords] = useState('');
  const [wordsError, setWordsError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [values, setValues] = useState<UnlockFormValues>({ password: '', confirmation: '' });
  const wordsRef = useRef<HTMLTextAreaElement>(null);
  const form = useKeyForm<keyof UnlockFormValues>(
    ['password', 'confirmation'],
    validateUnlockForm('set-up', values),
  );
  const working = checking || form.working;

  const checkWords = async (event: SyntheticEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (working) return;
    if (words.trim() === '') {
      setWordsError(WORDS_REQUIRED);
      wordsRef.current?.focus();
      return;
    }
    setChecking(true);
    try {
      const problem = await onCheckWords(words);
      setWordsError(problem);
      if (problem === null) setStep('new-key');
      else wordsRef.current?.focus();
    } finally {
      setChecking(false);
    }
  };

  const recover = async (): Promise<void> => {
    form.setSubmitError(await onRecover(words, values.password));
  };

  if (step === 'words') {
    return (
      <form noValidate onSubmit={(event) => void checkWords(event)} aria-busy={working}>
        <Stack gap="md">
          <Textarea
            ref={wordsRef}
            label="Recovery kit words"
            description="The 24 words of your recovery kit, in order. Spaces, line breaks and numbers do not matter."
            value={words}
            onChange={(event) => {
              setWords(event.currentTarget.value);
              setWordsError(null);
            }}
            error={wordsError}
            disabled={working}
            rows={5}
            resize="vertical"
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            required
            size="md"
            data-autofocus
            autoFocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Button type="submit" size="md" fullWidth loading={working}>
            Continue
          </Button>
          <ActionButton
            variant="subtle"
            color="gray"
            icon={IconArrowLeft}
            onClick={onBack}
            disabled={working}
          >
            Back
          </ActionButton>
        </Stack>
      </form>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void form.submit(event, recover)} aria-busy={working}>
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap" role="status">
          <ThemeIcon size={22} radius="xl" color="teal" aria-hidden>
            <IconCheck size={14} stroke={3} />
          </ThemeIcon>
          <Text size="sm">Recovery kit accepted. Choose a new master unlock key.</Text>
        </Group>
        <NewKeyFields
          values={values}
          onChange={(next) => {
            setValues(next);
            form.setSubmitError(null);
          }}
          errors={{ password: form.shown.shown('password'), confirmation: form.shown.shown('confirmation') }}
          onLeave={form.shown.leave}
          disabled={working}
          checklistId="recovery-key-rules"
          passwordRef={form.inputRef('password')}
          confirmationRef={form.inputRef('confirmation')}
          size="md"
          autoFocus
        />
        {form.submitError !== null && (
          <Text size="sm" c="red" role="alert">
            {form.submitError}
          </Text>
        )}
        <Button
          type="submit"
          size="md"
          fullWidth
          loading={working}
          leftSection={<IconLockOpen size={18} aria-hidden />}
        >
          Set new key and unlock
        </Button>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={() => {
            setStep('words');
          }}
          disabled={working}
        >
          Back
        </Button>
      </Stack>
    </form>
  );
}
