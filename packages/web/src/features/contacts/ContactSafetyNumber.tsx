import type { ReactElement } from 'react';
import { SafetyNumber } from './SafetyNumber';
import { useKeyFingerprint } from './use-contacts';

interface ContactSafetyNumberProps {
  name: string;
  publicKey: string;
  /** On a card or in the share dialog: smaller, with a one-line hint. */
  compact?: boolean;
}

/**
 * The fingerprint of the contact's public key. Comparing it with the one the contact sees on their
 * own Profile, out of band, shows that files are encrypted for their key and not a substitute, even
 * when two addresses look alike.
 */
export function ContactSafetyNumber({
  name,
  publicKey,
  compact = false,
}: ContactSafetyNumberProps): ReactElement | null {
  const fingerprint = useKeyFingerprint(publicKey);
  if (fingerprint.data === undefined) return null;
  return (
    <SafetyNumber
      label="Safety number"
      fingerprint={fingerprint.data}
      compact={compact}
      hint={
        compact
          ? `Matches the number on ${name}’s Profile page? Then files you share open only for ${name}.`
          : `Ask ${name} for the safety number on their Profile page, in person or on a call. If the two match, files you share can be opened only by ${name}.`
      }
    />
  );
}
