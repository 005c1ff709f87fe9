import type { ReactElement, ReactNode } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

type ActionButtonProps = {
  icon: Icon;
  /** The icon's size in px (16 beside small text, 18 beside a default button's). */
  iconSize?: number;
  onClick: () => void;
  children: ReactNode;
} & Omit<ButtonProps, 'leftSection' | 'children'>;

/** A button that does something on this screen, led by its icon (`LinkButton` goes to another). */
export function ActionButton({
  icon: Glyph,
  iconSize = 16,
  children,
  ...button
}: ActionButtonProps): ReactElement {
  return (
    <Button leftSection={<Glyph size={iconSize} aria-hidden />} {...button}>
      {children}
    </Button>
  );
}
