import { DIRECT_UPLOAD_THRESHOLD } from '@coffer/contracts';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { fileTypeGroupOf, identifyUser, sizeBucketOf, track, trackPageView } from '../../lib/analytics';
import { loadedTransferManager, subscribeToTransfers } from '../../lib/transfers/loaded-manager';
import { useCurrentUser } from '../../session/current-user';

type TransferStatus = 'queued' | 'processing' | 'complete' | 'failed' | 'aborted';

/**
 * Product analytics of the whole app in one place: page views (as route patterns), the person (by
 * pseudonym), and transfer events derived from the transfer manager's state changes. Sends nothing
 * unless analytics is configured (see lib/analytics).
 */
export function AnalyticsWatcher(): null {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const userId = user?.id ?? null;
  // Downloads start on the page that lists the file: shared pages download shared files.
  const pathRef = useRef(pathname);
  pathRef.current = pathname;

  useEffect(() => {
    trackPageView(pathname);
  }, [pathname]);

  useEffect(() => {
    if (userId !== null) void identifyUser(userId);
  }, [userId]);

  useEffect(() => {
    const seen = new Map<string, TransferStatus>();
    const sources = new Map<string, 'own' | 'shared'>();
    const onChange = (): void => {
      const manager = loadedTransferManager();
      if (manager === undefined) return;
      const { uploads, downloads } = manager.getSnapshot();
      for (const item of uploads) {
        const before = seen.get(item.id);
        if (before === item.status) continue;
        seen.set(item.id, item.status);
        const props = {
          sizeBucket: sizeBucketOf(item.size),
          fileType: fileTypeGroupOf(item.fileName),
          method: item.size > DIRECT_UPLOAD_THRESHOLD ? ('multipart' as const) : ('direct' as const),
        };
        if (before === undefined) track('upload_started', props);
        if (item.status === 'complete') track('upload_completed', props);
        if (item.status === 'failed') track('upload_failed', { ...props, reason: 'unknown' });
      }
      for (const item of downloads) {
        if (!sources.has(item.id)) {
          const shared = pathRef.current.startsWith('/sharedwithme') || pathRef.current.startsWith('/share/');
          sources.set(item.id, shared ? 'shared' : 'own');
        }
        const before = seen.get(item.id);
        if (before === item.status) continue;
        seen.set(item.id, item.status);
        if (item.status === 'complete') {
          track('download', {
            sizeBucket: sizeBucketOf(item.size),
            fileType: fileTypeGroupOf(item.fileName),
            source: sources.get(item.id) ?? 'own',
          });
        }
      }
    };
    return subscribeToTransfers(onChange);
  }, []);

  return null;
}
