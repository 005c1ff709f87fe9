import type { ReactElement } from 'react';
import { Avatar, type MantineSize } from '@mantine/core';
import { contactInitials } from '../../lib/contacts/contact-search';

interface PersonAvatarProps {
  name: string;
  email?: string | null;
  /** '#rrggbb' from the server (contacts) or the session (the user). */
  color: string;
  image?: string | null;
  size?: MantineSize | number;
}

/** A round avatar: the person's image, or their initials on their colour. */
export function PersonAvatar({ name, email, color, image, size = 'md' }: PersonAvatarProps): ReactElement {
  return (
    <Avatar
      src={image ?? null}
      alt=""
      size={size}
      radius="xl"
      variant="filled"
      color={color}
      autoContrast
      aria-hidden
    >
      {contactInitials(name, email ?? '')}
    </Avatar>
  );
}
