import { useState, type ReactElement } from 'react';
import { Button, Checkbox, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconPrinter } from '@tabler/icons-react';
import { RecoveryKitPrintView } from './RecoveryKitPrintView';
import { RecoveryWordList } from './RecoveryWordList';

interface RecoveryKitSheetProps {
  words: readonly string[];
  email: string | null;
  /** The way on, enabled once the person says they saved the words. */
  doneLabel: string;
  onDone: () => void;
}

/**
 * A recovery kit just made: its 24 words, shown this once, with ways to keep them (copy, print or
 * save as PDF), and a confirmation before leaving.
 */
export function RecoveryKitSheet({ words, email, doneLabel, onDone }: RecoveryKitSheetProps): ReactElement {
  const [saved, setSaved] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [createdAt] = useState(() => new Date());

  return (
    <Stack gap="md" data-testid="recovery-kit">
      <Text size="sm">
        These 24 words open your encryption keys if you forget your master unlock key. Anyone who has them can
        open your files, so keep them offline, somewhere safe. Coffer shows them only now.
      </Text>
      <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-0)">
        <RecoveryWordList words={words} />
      </Paper>
      <Group gap="xs" grow preventGrowOverflow={false} wrap="wrap">
        <CopyButton value={words.join(' ')} timeout={3000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              {copied ? 'Words copied' : 'Copy words'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconPrinter size={16} aria-hidden />}
          onClick={() => {
            setPrinting(true);
          }}
        >
          Print / save as PDF
        </Button>
      </Group>
      <Checkbox
        label="I have saved my recovery kit"
        checked={saved}
        onChange={(event) => {
          setSaved(event.currentTarget.checked);
        }}
      />
      <Button fullWidth disabled={!saved} onClick={onDone}>
        {doneLabel}
      </Button>
      <RecoveryKitPrintView
        opened={printing}
        onClose={() => {
          setPrinting(false);
        }}
        words={words}
        email={email}
        createdAt={createdAt}
      />
    </Stack>
  );
}
