import { useEffect, useState, type ReactElement } from 'react';
import { Button, Group, Image, List, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { Logo } from '../../ui/Logo';
import { recoveryWordsQr } from './recovery-kit-qr';
import { RecoveryWordList } from './RecoveryWordList';
import classes from './RecoveryKitPrint.module.css';

interface RecoveryKitPrintViewProps {
  opened: boolean;
  onClose: () => void;
  words: readonly string[];
  /** Whose kit: printed on the page, so a drawer of papers says which account each opens. */
  email: string | null;
  createdAt: Date;
}

/** The printable recovery kit: the words, their QR code and what to do with the page. */
export function RecoveryKitPrintView({
  opened,
  onClose,
  words,
  email,
  createdAt,
}: RecoveryKitPrintViewProps): ReactElement {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    let current = true;
    void recoveryWordsQr(words).then((url) => {
      if (current) setQr(url);
    });
    return () => {
      current = false;
    };
  }, [opened, words]);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      fullScreen
      title="Printable recovery kit"
      closeButtonProps={{ 'aria-label': 'Close the printable kit' }}
    >
      <Stack gap="lg" className={classes.sheet} data-testid="recovery-kit-print">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={4}>
            <Logo size={28} />
            <Title order={2} fz="xl">
              Recovery kit
            </Title>
            {email !== null && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                Account: {email}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              Created {createdAt.toLocaleDateString(undefined, { dateStyle: 'long' })}
            </Text>
          </Stack>
          {qr === null ? (
            <Loader size="sm" aria-label="Drawing the QR code" />
          ) : (
            <Image src={qr} alt="QR code of the recovery words" className={classes.qr} />
          )}
        </Group>
        <RecoveryWordList words={words} cols={{ base: 2, xs: 3 }} />
        <List size="sm" spacing={4}>
          <List.Item>
            If you forget your master unlock key, choose “Forgot your master unlock key?” on the unlock
            screen, then “Use your recovery kit”, and enter these words.
          </List.Item>
          <List.Item>Anyone with these words can open your files. Keep this page somewhere safe.</List.Item>
          <List.Item>A newer recovery kit replaces this one: then these words stop working.</List.Item>
        </List>
        <Group justify="flex-end" className={classes.screenOnly}>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button
            leftSection={<IconPrinter size={18} aria-hidden />}
            onClick={() => {
              window.print();
            }}
          >
            Print
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
