import { useEffect, useState, type ReactElement } from 'react';
import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { folderNameProblem } from '../../lib/drive';

interface FolderNameDialogProps {
  opened: boolean;
  /** "New folder" or "Rename …". */
  title: string;
  /** The button: "Create" or "Rename". */
  actionLabel: string;
  initialName?: string;
  onClose: () => void;
  /** Runs the change; the dialog spins meanwhile and closes when it resolves. */
  onSubmit: (name: string) => Promise<void>;
}

/** Asks for a folder's (or a file's) name: not empty, no `/` or `\`, at most 255 characters. */
export function FolderNameDialog({
  opened,
  title,
  actionLabel,
  initialName = '',
  onClose,
  onSubmit,
}: FolderNameDialogProps): ReactElement {
  const [name, setName] = useState(initialName);
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (opened) {
      setName(initialName);
      setTouched(false);
    }
  }, [opened, initialName]);
  const problem = folderNameProblem(name);
  const submit = (): void => {
    setTouched(true);
    if (problem !== null) return;
    setPending(true);
    onSubmit(name.trim()).then(
      () => {
        setPending(false);
        onClose();
      },
      () => {
        setPending(false);
      },
    );
  };
  return (
    <Modal opened={opened} onClose={pending ? () => undefined : onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Name"
            data-autofocus
            value={name}
            maxLength={1024}
            error={touched ? problem : null}
            onChange={(event) => {
              setName(event.currentTarget.value);
            }}
          />
          <DialogActions onCancel={onClose} pending={pending}>
            <Button type="submit" loading={pending}>
              {actionLabel}
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}
