import type { ReactElement } from 'react';
import { fileTypeLabels, type FileType } from '@coffer/contracts';
import { ThemeIcon, type MantineColor } from '@mantine/core';
import {
  IconFile,
  IconFileCode,
  IconFileSpreadsheet,
  IconFileText,
  IconFileTypeDoc,
  IconFileTypePdf,
  IconFileZip,
  IconMovie,
  IconMusic,
  IconPhoto,
  IconPresentation,
  type Icon,
} from '@tabler/icons-react';

/** Icon and colour of each file-type group (spec section 3). */
export const fileTypeAppearance: Readonly<Record<FileType, { icon: Icon; color: MantineColor }>> = {
  image: { icon: IconPhoto, color: 'teal' },
  pdf: { icon: IconFileTypePdf, color: 'red' },
  word: { icon: IconFileTypeDoc, color: 'blue' },
  spreadsheet: { icon: IconFileSpreadsheet, color: 'green' },
  presentation: { icon: IconPresentation, color: 'orange' },
  text: { icon: IconFileText, color: 'gray' },
  archive: { icon: IconFileZip, color: 'yellow' },
  video: { icon: IconMovie, color: 'grape' },
  audio: { icon: IconMusic, color: 'pink' },
  code: { icon: IconFileCode, color: 'indigo' },
  other: { icon: IconFile, color: 'gray' },
};

export function FileTypeIcon({ type, size = 44 }: { type: FileType; size?: number }): ReactElement {
  const { icon: TypeIcon, color } = fileTypeAppearance[type];
  return (
    <ThemeIcon
      size={size}
      radius="md"
      variant="light"
      color={color}
      aria-label={fileTypeLabels[type]}
      role="img"
      data-file-type={type}
    >
      <TypeIcon size={Math.round(size * 0.55)} stroke={1.6} aria-hidden />
    </ThemeIcon>
  );
}
