import type { ReactElement } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import {
  DOWNLOAD_LIMITS,
  EXPIRY_PRESETS,
  type DownloadLimitChoice,
  type ExpiryChoice,
} from './link-settings';

export interface LinkSettingsValue {
  readonly expiry: ExpiryChoice;
  /** A `datetime-local` value, for `expiry === 'date'`. */
  readonly date: string;
  readonly limit: DownloadLimitChoice;
}

/** Expires, Download limit and (for "On a date…") the date: making a link and changing one. */
export function LinkSettingsFields({
  value,
  onChange,
  dateError,
}: {
  value: LinkSettingsValue;
  onChange: (next: LinkSettingsValue) => void;
  dateError: string | null;
}): ReactElement {
  return (
    <>
      <Group grow align="flex-start" wrap="wrap">
        <Select
          label="Expires"
          data={EXPIRY_PRESETS.map(({ value: choice, label }) => ({ value: choice, label }))}
          value={value.expiry}
          onChange={(choice) => {
            if (choice !== null) onChange({ ...value, expiry: choice });
          }}
          allowDeselect={false}
          miw={160}
        />
        <Select
          label="Download limit"
          data={DOWNLOAD_LIMITS.map(({ value: choice, label }) => ({ value: choice, label }))}
          value={value.limit}
          onChange={(choice) => {
            if (choice !== null) onChange({ ...value, limit: choice });
          }}
          allowDeselect={false}
          miw={160}
        />
      </Group>
      {value.expiry === 'date' && (
        <TextInput
          type="datetime-local"
          label="Expiry date and time"
          value={value.date}
          onChange={(event) => {
            onChange({ ...value, date: event.currentTarget.value });
          }}
          error={value.date === '' ? undefined : dateError}
        />
      )}
    </>
  );
}
