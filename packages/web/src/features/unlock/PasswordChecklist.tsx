import type { ReactElement } from 'react';
import { Group, List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { passwordChecklist } from './unlock-form';

/** The master unlock key rules (spec section 5), ticked off while the user types. */
export function PasswordChecklist({ password, id }: { password: string; id: string }): ReactElement {
  const rules = passwordChecklist(password);
  return (
    <div id={id}>
      <Text size="sm" fw={500} mb={6}>
        Your master unlock key needs
      </Text>
      <List spacing={4} size="sm" listStyleType="none" aria-live="polite">
        {rules.map((rule) => (
          <List.Item key={rule.id} data-rule={rule.id} data-met={rule.met}>
            <Group gap={8} wrap="nowrap">
              <ThemeIcon
                size={18}
                radius="xl"
                variant={rule.met ? 'filled' : 'light'}
                color={rule.met ? 'teal' : 'gray'}
                aria-hidden
              >
                {rule.met ? <IconCheck size={12} stroke={3} /> : <IconPoint size={12} stroke={3} />}
              </ThemeIcon>
              <Text size="sm" c={rule.met ? undefined : 'dimmed'}>
                {rule.label}
                <VisuallyHidden>{rule.met ? ' (done)' : ' (missing)'}</VisuallyHidden>
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </div>
  );
}
