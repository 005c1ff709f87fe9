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

/** WCAG relative luminance of a '#rrggbb' colour; null for anything else (a theme colour name). */
function luminance(hex: string): number | null {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (match === null) return null;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(match[1]?.slice(i, i + 2) ?? '0', 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Black or white initials, whichever contrasts more with the avatar colour (WCAG), so every palette
 * colour passes 4.5:1; Mantine's autoContrast puts white on mid greens at 3.1:1.
 */
export function initialsColorOn(background: string): string | undefined {
  const l = luminance(background);
  if (l === null) return undefined;
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
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
      styles={{ placeholder: { color: initialsColorOn(color) } }}
      aria-hidden
    >
      {contactInitials(name, email ?? '')}
    </Avatar>
  );
}
