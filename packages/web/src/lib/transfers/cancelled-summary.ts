import {
  downloadMessages,
  downloadsCancelledText,
  uploadMessages,
  uploadsCancelledText,
} from '@coffer/contracts';
import type { TransferItem, TransfersSnapshot } from './transfer-manager.types';

const isActive = (item: TransferItem): boolean => item.status === 'queued' || item.status === 'processing';

/**
 * What leaving the page cancels, in the spec's words ('Upload cancelled', 'n uploads cancelled',
 * and the same for downloads), one line per kind: a transfer ended by navigation must not end
 * without a word (issue 15, point 13). `snapshot`: the manager's state just before aborting.
 */
export function cancelledSummary(snapshot: TransfersSnapshot): string[] {
  const uploads = snapshot.uploads.filter(isActive).length;
  const downloads = snapshot.downloads.filter(isActive).length;
  const lines: string[] = [];
  if (uploads > 0) lines.push(uploads === 1 ? uploadMessages.cancelled : uploadsCancelledText(uploads));
  if (downloads > 0)
    lines.push(downloads === 1 ? downloadMessages.cancelled : downloadsCancelledText(downloads));
  return lines;
}
