import type { ReactElement } from 'react';
import { Text } from '@mantine/core';
import { fileFacts, type FileView } from '../../lib/files/file-views';

/**
 * A file named in a confirmation: the name in bold and, beside it, its size and upload time, so
 * the person confirms for the right one of several files with the same name (issue 15, point 11).
 */
export function FileNameWithFacts({ file }: { file: FileView }): ReactElement {
  return (
    <>
      <strong>{file.title}</strong>{' '}
      <Text span size="sm" c="dimmed">
        ({fileFacts(file)})
      </Text>
    </>
  );
}
