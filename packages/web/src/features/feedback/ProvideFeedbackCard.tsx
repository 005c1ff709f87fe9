import { useState, type ReactElement } from 'react';
import {
  FEEDBACK_MAX_LENGTH,
  feedbackCounterText,
  feedbackMessages,
  profileMessages,
  validateFeedback,
} from '@coffer/contracts';
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconSend } from '@tabler/icons-react';
import { useApiClient } from '../../lib/api/context';
import { feedbackApi } from '../../lib/api/endpoints';
import { snackbar } from '../../lib/snackbar';

/** Provide Feedback (on Profile): a message of at most 2000 characters with an n/2000 counter. */
export function ProvideFeedbackCard(): ReactElement {
  const api = useApiClient();
  const [message, setMessage] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const send = useMutation({
    mutationFn: (text: string) => feedbackApi.send(api, text),
    onSuccess: () => {
      snackbar.success(feedbackMessages.success);
      setMessage('');
      setSubmitted(false);
    },
    onError: () => {
      snackbar.danger(feedbackMessages.failed);
    },
  });

  const tooLong = message.length > FEEDBACK_MAX_LENGTH;
  // The length error shows as soon as it applies; "required" only after a submit attempt.
  const error = tooLong || submitted ? validateFeedback(message) : null;

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="feedback-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (validateFeedback(message) === null) send.mutate(message.trim());
        }}
      >
        <Stack gap="md">
          <div>
            <Title order={2} fz="lg" id="feedback-title">
              {profileMessages.provideFeedback}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              Tell us what works and what does not. Feedback goes to the Coffer team as plain text: it is not
              end-to-end encrypted, so leave out anything private.
            </Text>
          </div>
          <Textarea
            label="Your feedback"
            rows={5}
            resize="vertical"
            value={message}
            error={error}
            onChange={(event) => {
              setMessage(event.currentTarget.value);
            }}
          />
          <Group justify="space-between" gap="sm">
            <Text size="sm" c={tooLong ? 'red' : 'dimmed'} aria-live="polite" data-testid="feedback-counter">
              {feedbackCounterText(message.length)}
            </Text>
            <Button type="submit" loading={send.isPending} leftSection={<IconSend size={18} aria-hidden />}>
              Send feedback
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
