import type { ReactElement } from 'react';
import { Badge, Loader } from '@mantine/core';
import { IconShieldCheck, IconShieldQuestion } from '@tabler/icons-react';
import type { ContactStatus } from '../../lib/contacts/contact-status';

/** Verified (has a public key), unverified, or still checking. */
export function ContactStatusBadge({ status }: { status: ContactStatus }): ReactElement {
  switch (status) {
    case 'checking':
      return (
        <Badge variant="light" color="gray" leftSection={<Loader size={10} color="gray" />}>
          Checking
        </Badge>
      );
    case 'verified':
      return (
        <Badge variant="light" color="green" leftSection={<IconShieldCheck size={14} aria-hidden />}>
          Verified
        </Badge>
      );
    case 'unverified':
      return (
        <Badge variant="light" color="yellow" leftSection={<IconShieldQuestion size={14} aria-hidden />}>
          Unverified
        </Badge>
      );
  }
}
