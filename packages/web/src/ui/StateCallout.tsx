import type { ReactElement, ReactNode } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { StateLook } from './state-look';

/** Something the user can do about a state, as a small button in the state's colour. */
export interface StateAction {
  readonly label: string;
  readonly onClick: () => void;
  readonly icon?: Icon;
  readonly loading?: boolean;
  /**
   * Filled in the darkest shade of the state's colour instead of light: for the one way out of a
   * page-level state, where a light button would not stand out from the light callout.
   */
  readonly filled?: boolean;
}

interface StateCalloutProps {
  /** The state: the callout's title, colour and icon. */
  look: StateLook;
  /** Why the user is in this state. */
  reason: string;
  /** `status` for a calm state that blocks nothing (announced politely), else an alert. */
  role?: 'alert' | 'status';
  /** What the user needs to see before acting (e.g. safety numbers), under the reason. */
  children?: ReactNode;
  actions?: readonly StateAction[];
  /** Why the last action failed, said under the actions. */
  actionError?: string | null;
  /** `sm` inside a card, with a smaller icon. */
  size?: 'sm' | 'md';
}

/**
 * A state the user must know about: what it is (title, colour and icon), why, and what they can do
 * about it. Trust states, refusals and failed checks all use it, so they read alike.
 */
export function StateCallout({
  look,
  reason,
  role = 'alert',
  children,
  actions = [],
  actionError,
  size = 'md',
}: StateCalloutProps): ReactElement {
  const { label, color, icon: Icon } = look;
  return (
    <Alert
      color={color}
      variant="light"
      role={role}
      title={label}
      icon={Icon === undefined ? undefined : <Icon size={size === 'sm' ? 18 : 20} aria-hidden />}
    >
      <Stack gap="sm">
        <Text size="sm">{reason}</Text>
        {children}
        {actions.length > 0 && (
          <Group gap="xs">
            {actions.map((action) => (
              <StateActionButton key={action.label} action={action} color={color} />
            ))}
          </Group>
        )}
        {actionError !== undefined && actionError !== null && (
          <Text size="sm" c="red">
            {actionError}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * A filled button's background where even the darkest shade of the palette leaves white 12 px text
 * under WCAG's 4.5:1 (Mantine's orange.9, #d9480f: 4.29); the darker orange gives 5.7:1.
 */
const FILLED_BACKGROUND: Readonly<Partial<Record<string, string>>> = { orange: '#b53f0c' };

function StateActionButton({ action, color }: { action: StateAction; color: string }): ReactElement {
  const { label, onClick, icon: Icon, loading, filled = false } = action;
  return (
    <Button
      size="xs"
      variant={filled ? 'filled' : 'light'}
      color={filled ? (FILLED_BACKGROUND[color] ?? `${color}.9`) : color}
      loading={loading}
      leftSection={Icon === undefined ? undefined : <Icon size={16} aria-hidden />}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}
