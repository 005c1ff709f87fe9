import { useState, type ReactElement } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useAppSession } from '../../session/session-context';
import { WrongOldPasswordError } from '../../lib/encryption/encryption.errors';
import { snackbar } from '../../lib/snackbar';
import { NewKeyFields } from '../unlock/NewKeyFields';
import { MasterKeyInput } from '../unlock/MasterKeyInput';
import { useKeyForm } from '../unlock/use-key-form';
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
  const [done, setDone] = useState(false);
  const form = useKeyForm<keyof ChangeKeyValues>(
    ['current', 'password', 'confirmation'],
    validateChangeKeyForm(values),
  );

  const change = (next: Partial<ChangeKeyValues>): void => {
    setValues((previous) => ({ ...previous, ...next }));
    form.setSubmitError(null);
    setDone(false);
  };

  const submit = async (): Promise<void> => {
    try {
      await encryption.changePassword(values.current, values.password);
      setValues(EMPTY);
      form.shown.reset();
      setDone(true);
      snackbar.success(changeKeyTexts.changed);
    } catch (error) {
      if (error instanceof WrongOldPasswordError) {
        form.setSubmitError(changeKeyTexts.wrongCurrent);
        setValues((previous) => ({ ...previous, current: '' }));
        form.focus('current');
      } else {
        console.error('Changing the master unlock key failed', error);
        form.setSubmitError(changeKeyTexts.failed);
      }
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        setDone(false);
        void form.submit(event, submit);
      }}
      aria-busy={form.working}
      aria-labelledby="change-key-title"
    >
      <Stack gap="md">
        <MasterKeyInput
          ref={form.inputRef('current')}
          label="Current master unlock key"
          autoComplete="current-password"
          value={values.current}
          onValue={(current) => {
            change({ current });
          }}
          onLeave={(current) => {
            form.shown.leave('current', current);
          }}
          error={
            form.submitError === changeKeyTexts.wrongCurrent ? form.submitError : form.shown.shown('current')
          }
          disabled={form.working}
        />
        <NewKeyFields
          values={values}
          onChange={(next) => {
            change(next);
          }}
          errors={{ password: form.shown.shown('password'), confirmation: form.shown.shown('confirmation') }}
          onLeave={form.shown.leave}
          disabled={form.working}
          checklistId="change-key-rules"
          passwordRef={form.inputRef('password')}
          confirmationRef={form.inputRef('confirmation')}
        />
        {form.submitError !== null && form.submitError !== changeKeyTexts.wrongCurrent && (
          <Text size="sm" c="red" role="alert">
            {form.submitError}
          </Text>
        )}
        {done && (
          <Text size="sm" c="teal.8" role="status">
            {changeKeyTexts.changed}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          {form.working && (
            <Text size="sm" c="dimmed" role="status">
              {changeKeyTexts.working}
            </Text>
          )}
          <Button type="submit" loading={form.working} leftSection={<IconKey size={16} aria-hidden />}>
            Change master unlock key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
