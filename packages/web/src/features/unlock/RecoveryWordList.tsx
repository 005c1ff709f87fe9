import type { ReactElement } from 'react';
import { Box, SimpleGrid, Text } from '@mantine/core';

/** The 24 words, numbered, in reading order down the rows (1 2 3 / 4 5 6 …). */
export function RecoveryWordList({
  words,
  cols = { base: 2, xs: 3 },
}: {
  words: readonly string[];
  cols?: { base: number; xs?: number };
}): ReactElement {
  return (
    <SimpleGrid
      component="ol"
      aria-label="Recovery words"
      cols={cols}
      spacing="xs"
      verticalSpacing={6}
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {words.map((word, index) => (
        <Box
          component="li"
          // The same word may appear twice: the position is the identity (a fixed list).
          key={index}
          px="sm"
          py={6}
          bg="var(--mantine-color-body)"
          bd="1px solid var(--mantine-color-default-border)"
          style={{
            borderRadius: 'var(--mantine-radius-sm)',
            display: 'flex',
            gap: 8,
            alignItems: 'baseline',
          }}
        >
          <Text span size="xs" c="dimmed" w={20} ta="right" ff="monospace" aria-hidden>
            {index + 1}
          </Text>
          <Text span ff="monospace" fw={600} data-testid="recovery-word">
            {word}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
