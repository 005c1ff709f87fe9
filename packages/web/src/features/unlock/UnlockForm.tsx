import { useRef, useState, type ReactElement, type SyntheticEvent } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { IconLockOpen, IconShieldCheck } from '@tabler/icons-react';
import type { SetupStatus } from '../../lib/encryption/encryption-session';
import { PasswordChecklist } from './PasswordChecklist';
import { validateUnlockForm, type UnlockFormValues } from './unlock-form';

export interface UnlockFormProps {
  mode: SetupStatus;
  /** Runs the set-up or unlock; resolves with an error message to show at the field, or null. */
  onSubmit: (password: string) => Promise<string | null>;
  /** Unlock mode only: the forgotten-key link. */
  onForgotKey?: () => void;
}

/**
 * The master unlock key form: one field to unlock, two (with the rules as a checklist) to set up.
 * Messages appear once a field has been left or the form submitted, in spec section 5's order.
 */
export function UnlockForm({ mode, onSubmit, onForgotKey }: UnlockFormProps): ReactElement {
  const [values, setValues] = useState<UnlockFormValues>({ password: '', confirmation: '' });
  const [touched, setTouched] = useState({ password: false, confirmation: false });
  const [attempted, setAttempted] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);

  const errors = validateUnlockForm(mode, values);
  const passwordError =
    submitError ??
    ((attempted || touched.password) && errors.password !== undefined ? errors.password : null);
  const confirmationError =
    (attempted || touched.confirmation) && errors.confirmation !== undefined ? errors.confirmation : null;
  const settingUp = mode === 'set-up';

  const submit = async (event: SyntheticEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (working) return;
    setAttempted(true);
    setSubmitError(null);
    if (errors.password !== undefined) {
      passwordRef.current?.focus();
      return;
    }
    if (errors.confirmation !== undefined) {
      confirmationRef.current?.focus();
      return;
    }
    setWorking(true);
    try {
      const failure = await onSubmit(values.password);
      if (failure !== null) {
        setSubmitError(failure);
        setValues({ password: '', confirmation: '' });
        setAttempted(false);
        setTouched({ password: false, confirmation: false });
        passwordRef.current?.focus();
      }
    } finally {
      setWorking(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={working}>
      <Stack gap="md">
        <PasswordInput
          ref={passwordRef}
          label="Master unlock key"
          description={
            settingUp
              ? 'Protects your encryption keys. Only you know it: Coffer cannot recover it.'
              : undefined
          }
          autoComplete={settingUp ? 'new-password' : 'current-password'}
          value={values.password}
          onChange={(event) => {
            const password = event.currentTarget.value;
            setValues((previous) => ({ ...previous, password }));
            setSubmitError(null);
          }}
          onBlur={() => {
            if (values.password !== '') setTouched((previous) => ({ ...previous, password: true }));
          }}
          error={passwordError}
          disabled={working}
          data-autofocus
          autoFocus
          required
          size="md"
          aria-describedby={settingUp ? 'master-key-rules' : undefined}
        />
        {settingUp && <PasswordChecklist password={values.password} id="master-key-rules" />}
        {settingUp && (
          <PasswordInput
            ref={confirmationRef}
            label="Confirm master unlock key"
            autoComplete="new-password"
            value={values.confirmation}
            onChange={(event) => {
              const confirmation = event.currentTarget.value;
              setValues((previous) => ({ ...previous, confirmation }));
            }}
            onBlur={() => {
              if (values.confirmation !== '') setTouched((previous) => ({ ...previous, confirmation: true }));
            }}
            error={confirmationError}
            disabled={working}
            required
            size="md"
          />
        )}
        <Button
          type="submit"
          size="md"
          fullWidth
          loading={working}
          leftSection={
            settingUp ? <IconShieldCheck size={18} aria-hidden /> : <IconLockOpen size={18} aria-hidden />
          }
        >
          {settingUp ? 'Set up encryption' : 'Unlock'}
        </Button>
        {!settingUp && onForgotKey !== undefined && (
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={onForgotKey} disabled={working}>
              Forgot your master unlock key?
            </Anchor>
          </Text>
        )}
      </Stack>
    </form>
  );
}
