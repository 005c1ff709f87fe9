import type { ReactElement } from 'react';
import { IconLifebuoy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAppSession } from '../../session/session-context';
import { StateCallout } from '../../ui/StateCallout';
import type { StateLook } from '../../ui/state-look';

const SAVED_A_KIT: StateLook = { label: 'Saved a recovery kit?', color: 'coffer', icon: IconLifebuoy };

export const recoveryKitStatusQueryKey = ['encryption', 'recovery-kit'] as const;

/**
 * On the forgotten-key warning, before the reset: a person with a recovery kit keeps every file by
 * using it instead. Hidden when the account has none (or it cannot be told), leaving the reset.
 */
export function RecoveryOffer({ onUseKit }: { onUseKit: () => void }): ReactElement | null {
  const { encryption } = useAppSession();
  const kit = useQuery({
    queryKey: recoveryKitStatusQueryKey,
    queryFn: () => encryption.recoveryKitStatus(),
    retry: 1,
  });
  if (kit.data === undefined || kit.data === null) return null;
  return (
    <StateCallout
      look={SAVED_A_KIT}
      role="status"
      reason="Its 24 words open your keys and you choose a new master unlock key. Every file stays readable."
      actions={[{ label: 'Use your recovery kit', icon: IconLifebuoy, onClick: onUseKit, filled: true }]}
    />
  );
}
