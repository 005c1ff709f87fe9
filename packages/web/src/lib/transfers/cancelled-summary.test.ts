import { describe, expect, it } from 'vitest';
import { cancelledSummary } from './cancelled-summary';
import type { TransferItem } from './transfer-manager.types';

const item = (kind: TransferItem['kind'], status: TransferItem['status']): TransferItem => ({
  id: `${kind}-${status}-${Math.random()}`,
  kind,
  fileName: 'f.bin',
  size: 1,
  status,
  progress: 0,
  statusText: '',
  error: null,
  fileId: null,
});

describe('cancelledSummary', () => {
  it('counts the running and queued transfers of each kind in the spec’s words', () => {
    expect(
      cancelledSummary({
        uploads: [item('upload', 'processing'), item('upload', 'queued'), item('upload', 'complete')],
        downloads: [item('download', 'processing')],
      }),
    ).toEqual(['2 uploads cancelled', 'Download cancelled']);
    expect(
      cancelledSummary({
        uploads: [item('upload', 'processing')],
        downloads: [item('download', 'processing'), item('download', 'queued')],
      }),
    ).toEqual(['Upload cancelled', '2 downloads cancelled']);
  });

  it('says nothing when nothing was running', () => {
    expect(cancelledSummary({ uploads: [item('upload', 'failed')], downloads: [] })).toEqual([]);
  });
});
