import type { Icon } from '@tabler/icons-react';
import { IconCloudUpload, IconFolder, IconFolderShare, IconMessages, IconUsers } from '@tabler/icons-react';
import { paths } from '../../lib/navigation/paths';

export interface NavItem {
  readonly label: string;
  readonly to: string;
  readonly icon: Icon;
}

/** The sidenav's screen entries (spec: Profile, with Logout, comes first and is rendered apart). */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'New Upload', to: paths.newUpload, icon: IconCloudUpload },
  { label: 'My Files', to: paths.myFiles, icon: IconFolder },
  { label: 'Shared With Me', to: paths.sharedWithMe, icon: IconFolderShare },
  { label: 'Contacts', to: paths.contacts, icon: IconUsers },
];

/** Entries only admins see (the server decides who is one: GET /users/me). */
export const ADMIN_NAV_ITEMS: readonly NavItem[] = [
  { label: 'Feedback', to: paths.feedback, icon: IconMessages },
];
