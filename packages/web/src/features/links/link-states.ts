import { IconClockOff, IconCircleCheck, IconDownloadOff, IconFileOff, IconLock } from '@tabler/icons-react';
import type { StateLook } from '../../ui/state-look';
import type { OwnerLink, OwnerRequest } from '../../lib/links/link-wire';

/** How a link's state reads on the links screen. */
export const linkStateLooks: Record<OwnerLink['state'], StateLook> = {
  active: { label: 'Active', color: 'teal', icon: IconCircleCheck },
  expired: { label: 'Expired', color: 'gray', icon: IconClockOff },
  exhausted: { label: 'No downloads left', color: 'gray', icon: IconDownloadOff },
  empty: { label: 'Its files were deleted', color: 'gray', icon: IconFileOff },
};

export const requestStateLooks: Record<OwnerRequest['state'], StateLook> = {
  active: { label: 'Open', color: 'teal', icon: IconCircleCheck },
  expired: { label: 'Expired', color: 'gray', icon: IconClockOff },
  full: { label: 'Full', color: 'gray', icon: IconFileOff },
  closed: { label: 'Closed', color: 'gray', icon: IconLock },
};
