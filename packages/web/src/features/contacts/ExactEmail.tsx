import type { ReactElement } from 'react';
import { Text, type MantineSize } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { mixesAlphabets, revealHiddenCharacters } from '../../lib/contacts/exact-email';

interface ExactEmailProps {
  email: string;
  size?: MantineSize;
}

/**
 * A contact's address in full, as stored: it wraps rather than being cut off (a cut-off
 * `ceo@corp.example.evil.test` would read as `ceo@corp.example…`), runs left to right whatever the
 * characters around it, and shows hidden characters. An address mixing alphabets gets a warning.
 */
export function ExactEmail({ email, size = 'sm' }: ExactEmailProps): ReactElement {
  const mixed = mixesAlphabets(email);
  return (
    <>
      <Text
        size={size}
        c="dimmed"
        dir="ltr"
        translate="no"
        style={{ overflowWrap: 'anywhere', unicodeBidi: 'isolate' }}
      >
        {revealHiddenCharacters(email)}
      </Text>
      {mixed && (
        <Text size="xs" c="orange.8" role="note">
          <IconAlertTriangle size={12} aria-hidden style={{ verticalAlign: '-1px', marginRight: 4 }} />
          This address mixes letters from different alphabets. Check it letter by letter.
        </Text>
      )}
    </>
  );
}
