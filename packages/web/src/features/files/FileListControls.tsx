import type { ReactElement } from 'react';
import {
  fileTypeFilterOptions,
  sortOrderLabels,
  sortOrders,
  type FileTypeFilter,
  type SortOrder,
} from '@coffer/contracts';
import { Group, Select } from '@mantine/core';
import { IconFilter, IconSortDescending } from '@tabler/icons-react';
import { SearchInput } from '../../ui/SearchInput';
import type { FileListControls as Controls } from '../../lib/files/file-list';

const typeOptions = fileTypeFilterOptions.map(({ value, label }) => ({ value, label }));
const sortOptions = sortOrders.map((order) => ({ value: order, label: sortOrderLabels[order] }));

function isTypeFilter(value: string | null): value is FileTypeFilter {
  return typeOptions.some((option) => option.value === value);
}

function isSortOrder(value: string | null): value is SortOrder {
  return sortOrders.some((order) => order === value);
}

interface FileListControlsProps {
  value: Controls;
  onChange: (next: Controls) => void;
  /** Placeholder of the search box. */
  searchPlaceholder?: string;
}

/** Search box, file-type filter and sort order of My Files and Shared With Me (spec section 2). */
export function FileListControls({
  value,
  onChange,
  searchPlaceholder = 'Search files',
}: FileListControlsProps): ReactElement {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <SearchInput
        flex="1 1 240px"
        placeholder={searchPlaceholder}
        label="Search files"
        value={value.search}
        onChange={(search) => {
          onChange({ ...value, search });
        }}
      />
      <Group gap="sm" wrap="nowrap" flex="1 1 320px" maw={{ sm: 400 }}>
        <Select
          flex={1}
          miw={0}
          aria-label="File type"
          data={typeOptions}
          value={value.type}
          allowDeselect={false}
          leftSection={<IconFilter size={16} aria-hidden />}
          comboboxProps={{ withinPortal: true }}
          onChange={(next) => {
            if (isTypeFilter(next)) onChange({ ...value, type: next });
          }}
        />
        <Select
          flex={1}
          miw={0}
          aria-label="Sort order"
          data={sortOptions}
          value={value.order}
          allowDeselect={false}
          leftSection={<IconSortDescending size={16} aria-hidden />}
          comboboxProps={{ withinPortal: true }}
          onChange={(next) => {
            if (isSortOrder(next)) onChange({ ...value, order: next });
          }}
        />
      </Group>
    </Group>
  );
}
