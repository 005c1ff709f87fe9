import type { ReactElement, ReactNode } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { Link } from 'react-router';

type LinkButtonProps = { to: string; icon: Icon; children: ReactNode } & Omit<
  ButtonProps,
  'leftSection' | 'children'
>;

/** A button that goes to another screen of the app, led by its icon. */
export function LinkButton({ to, icon: Icon, children, ...button }: LinkButtonProps): ReactElement {
  return (
    <Button component={Link} to={to} leftSection={<Icon size={18} aria-hidden />} {...button}>
      {children}
    </Button>
  );
}
