import type { ReactElement } from 'react';
import { ActionIcon, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';

interface SearchInputProps {
  value: string;
  onChange: (next: string) => void;
  placeholder: string;
  /** The accessible name, e.g. "Search contacts". */
  label: string;
  flex?: string | number;
  w?: Record<string, number>;
}

/** The list screens' search box: a magnifier, and a clear button once something is typed. */
export function SearchInput({
  value,
  onChange,
  placeholder,
  label,
  flex,
  w,
}: SearchInputProps): ReactElement {
  return (
    <TextInput
      flex={flex}
      w={w}
      miw={0}
      placeholder={placeholder}
      aria-label={label}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(event) => {
        onChange(event.currentTarget.value);
      }}
      rightSection={
        value !== '' ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label="Clear search"
            onClick={() => {
              onChange('');
            }}
          >
            <IconX size={14} aria-hidden />
          </ActionIcon>
        ) : null
      }
    />
  );
}
