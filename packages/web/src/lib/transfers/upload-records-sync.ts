import type { UploadItem } from '@coffer/contracts';
import { ApiRequestError, seg, type ApiClient } from '../api/http';
import type { UploadRecord, UploadRecordStore } from './upload-records';

/**
 * Among the records of the signed-in user's uploads (`keyVersion`: another person's records on the
 * same browser are left alone), forgets those of uploads the server no longer has pending (completed elsewhere, cancelled,
 * expired by the sweeper): those listed with another status at once, those missing from the recent
 * list after asking the server about each (GET /users/uploads/multipart/{id} answers 404). Answers
 * the records that remain.
 */
export async function forgetFinishedUploads(
  store: UploadRecordStore,
  listed: readonly UploadItem[],
  api: ApiClient,
  keyVersion: string,
): Promise<UploadRecord[]> {
  const statusOf = new Map(listed.map((upload) => [upload.uploadId, upload.status]));
  const kept: UploadRecord[] = [];
  for (const record of await store.all()) {
    if (record.keyVersion !== keyVersion) continue;
    const status = statusOf.get(record.uploadId);
    if (status === 'pending' || (status === undefined && (await stillPending(api, record)))) {
      kept.push(record);
    } else {
      await store.delete(record.uploadId);
    }
  }
  return kept;
}

async function stillPending(api: ApiClient, record: UploadRecord): Promise<boolean> {
  try {
    await api.request('GET', `/users/uploads/multipart/${seg(record.uploadId)}`);
    return true;
  } catch (error) {
    // Only a clear "not found" forgets a record; a network failure keeps it for next time.
    return !(error instanceof ApiRequestError && error.status === 404);
  }
}
