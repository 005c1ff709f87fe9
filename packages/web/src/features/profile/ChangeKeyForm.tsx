import { useRef, useState, type ReactElement, type SyntheticEvent } from 'react';
import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useAppSession } from '../../session/session-context';
import { WrongOldPasswordError } from '../../lib/encryption/encryption.errors';
import { snackbar } from '../../lib/snackbar';
import { NewKeyFields } from '../unlock/NewKeyFields';
import { useShownErrors } from '../unlock/use-shown-errors';
import { validateChangeKeyForm, type ChangeKeyValues } from './change-key-form';

/** Ours: the texts of a change of master unlock key. */
export const changeKeyTexts = {
  wrongCurrent: 'The current master unlock key is not correct. Nothing was changed.',
  failed: 'The master unlock key could not be changed. Nothing was changed; try again.',
  changed: 'Master unlock key changed. Use the new one from now on, on every device.',
  working: 'Re-encrypting your keys…',
} as const;

const EMPTY: ChangeKeyValues = { current: '', password: '', confirmation: '' };

/**
 * Change the master unlock key (spec section 5: it needs existing keys and the correct old key):
 * every private key is re-wrapped under the new key in one call, so the old key stops working
 * everywhere at once.
 */
export function ChangeKeyForm(): ReactElement {
  const { encryption } = useAppSession();
  const [values, setValues] = useState<ChangeKeyValues>(EMPTY);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [working, setWorking] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const errors = validateChangeKeyForm(values);
  const shown = useShownErrors<keyof ChangeKeyValues>(errors);

  const change = (next: Partial<ChangeKeyValues>): void => {
    setValues((previous) => ({ ...previous, ...next }));
    setSubmitError(null);
    setDone(false);
  };

  const submit = async (event: SyntheticEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (working) return;
    shown.attempt();
    setSubmitError(null);
    setDone(false);
    const first = (['current', 'password', 'confirmation'] as const).find(
      (field) => errors[field] !== undefined,
    );
    if (first !== undefined) {
      ({ current: currentRef, password: passwordRef, confirmation: confirmationRef })[first].current?.focus();
      return;
    }
    setWorking(true);
    try {
      await encryption.changePassword(values.current, values.password);
      setValues(EMPTY);
      shown.reset();
      setDone(true);
      snackbar.success(changeKeyTexts.changed);
    } catch (error) {
      if (error instanceof WrongOldPasswordError) {
        setSubmitError(changeKeyTexts.wrongCurrent);
        setValues((previous) => ({ ...previous, current: '' }));
        currentRef.current?.focus();
      } else {
        console.error('Changing the master unlock key failed', error);
        setSubmitError(changeKeyTexts.failed);
      }
    } finally {
      setWorking(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={working}
      aria-labelledby="change-key-title"
    >
      <Stack gap="md">
        <PasswordInput
          ref={currentRef}
          label="Current master unlock key"
          autoComplete="current-password"
          value={values.current}
          onChange={(event) => {
            change({ current: event.currentTarget.value });
          }}
          onBlur={() => {
            shown.leave('current', values.current);
          }}
          error={submitError === changeKeyTexts.wrongCurrent ? submitError : shown.shown('current')}
          disabled={working}
          required
        />
        <NewKeyFields
          values={values}
          onChange={(next) => {
            change(next);
          }}
          errors={{ password: shown.shown('password'), confirmation: shown.shown('confirmation') }}
          onLeave={shown.leave}
          disabled={working}
          checklistId="change-key-rules"
          passwordRef={passwordRef}
          confirmationRef={confirmationRef}
        />
        {submitError !== null && submitError !== changeKeyTexts.wrongCurrent && (
          <Text size="sm" c="red" role="alert">
            {submitError}
          </Text>
        )}
        {done && (
          <Text size="sm" c="teal.8" role="status">
            {changeKeyTexts.changed}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          {working && (
            <Text size="sm" c="dimmed" role="status">
              {changeKeyTexts.working}
            </Text>
          )}
          <Button type="submit" loading={working} leftSection={<IconKey size={16} aria-hidden />}>
            Change master unlock key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
