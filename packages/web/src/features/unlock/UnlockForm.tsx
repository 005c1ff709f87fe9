import type { ReactElement } from 'react';
import { useState } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconLockOpen, IconShieldCheck } from '@tabler/icons-react';
import type { SetupStatus } from '../../lib/encryption/encryption-session';
import { MasterKeyInput } from './MasterKeyInput';
import { NewKeyFields } from './NewKeyFields';
import { validateUnlockForm, type UnlockFormValues } from './unlock-form';
import { useKeyForm } from './use-key-form';

export interface UnlockFormProps {
  mode: SetupStatus;
  /** Runs the set-up or unlock; resolves with an error message to show at the field, or null. */
  onSubmit: (password: string) => Promise<string | null>;
  /** Unlock mode only: the forgotten-key link. */
  onForgotKey?: () => void;
}

const EMPTY: UnlockFormValues = { password: '', confirmation: '' };

/**
 * The master unlock key form: one field to unlock, two (with the rules as a checklist) to set up.
 * Messages appear once a field has been left or the form submitted, in spec section 5's order.
 */
export function UnlockForm({ mode, onSubmit, onForgotKey }: UnlockFormProps): ReactElement {
  const [values, setValues] = useState<UnlockFormValues>(EMPTY);
  const errors = validateUnlockForm(mode, values);
  const form = useKeyForm<keyof UnlockFormValues>(['password', 'confirmation'], errors);
  const passwordError = form.submitError ?? form.shown.shown('password');
  const settingUp = mode === 'set-up';

  const submit = async (): Promise<void> => {
    const failure = await onSubmit(values.password);
    if (failure !== null) {
      form.setSubmitError(failure);
      setValues(EMPTY);
      form.shown.reset();
      form.focus('password');
    }
  };

  return (
    <form noValidate onSubmit={(event) => void form.submit(event, submit)} aria-busy={form.working}>
      <Stack gap="md">
        {settingUp ? (
          <NewKeyFields
            values={values}
            onChange={(next) => {
              if (next.password !== values.password) form.setSubmitError(null);
              setValues(next);
            }}
            errors={{ password: passwordError, confirmation: form.shown.shown('confirmation') }}
            onLeave={form.shown.leave}
            disabled={form.working}
            checklistId="master-key-rules"
            passwordRef={form.inputRef('password')}
            confirmationRef={form.inputRef('confirmation')}
            size="md"
            autoFocus
            labels={{ password: 'Master unlock key', confirmation: 'Confirm master unlock key' }}
            description="Protects your encryption keys. Only you know it: Coffer cannot recover it."
          />
        ) : (
          <MasterKeyInput
            ref={form.inputRef('password')}
            label="Master unlock key"
            autoComplete="current-password"
            value={values.password}
            onValue={(password) => {
              setValues((previous) => ({ ...previous, password }));
              form.setSubmitError(null);
            }}
            onLeave={(password) => {
              form.shown.leave('password', password);
            }}
            error={passwordError}
            disabled={form.working}
            data-autofocus
            autoFocus
            size="md"
          />
        )}
        <Button
          type="submit"
          size="md"
          fullWidth
          loading={form.working}
          leftSection={
            settingUp ? <IconShieldCheck size={18} aria-hidden /> : <IconLockOpen size={18} aria-hidden />
          }
        >
          {settingUp ? 'Set up encryption' : 'Unlock'}
        </Button>
        {!settingUp && onForgotKey !== undefined && (
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={onForgotKey} disabled={form.working}>
              Forgot your master unlock key?
            </Anchor>
          </Text>
        )}
      </Stack>
    </form>
  );
}
