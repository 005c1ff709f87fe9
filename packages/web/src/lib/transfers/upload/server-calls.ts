import {
  uploadMessages,
  type CompletedPart,
  type CreateMultipartUploadRequest,
  type CreateMultipartUploadResponse,
  type FileListItem,
} from '@coffer/contracts';
import { ApiRequestError, seg } from '../../api/http';
import { fromApiRequestError } from '../error-mapping';
import { TransferAbortedError, TransferError, isAbortError } from '../transfer-errors';
import type { PartTarget } from './send';
import { sentNameAndType, throwIfAborted, type UploadContext } from './upload-context';

/**
 * The JSON calls around a multipart upload's parts: create, complete, and the abort on the server.
 * Not retried (docs/transfers.md, "A bad network"); their errors are the upload's texts.
 */
type CallContext = Pick<UploadContext, 'api' | 'uploadsPath' | 'signal'>;

/** Creates the multipart upload: its name and type as sent, size, part count, key, manifest, node. */
export function createMultipart(
  context: CallContext &
    Pick<
      UploadContext,
      'file' | 'contentType' | 'chunkCount' | 'encryptionInfo' | 'manifest' | 'node' | 'sealedMetadata'
    >,
): Promise<CreateMultipartUploadResponse> {
  const sent = sentNameAndType(context);
  return callJson<CreateMultipartUploadResponse>(context, 'POST', `${context.uploadsPath}/multipart`, {
    name: sent.name,
    contentType: sent.contentType,
    size: context.file.size,
    parts: context.chunkCount,
    isEncrypted: true,
    encryptionInfo: context.encryptionInfo,
    ...(context.manifest === undefined ? {} : { manifest: context.manifest }),
    ...(context.node === undefined ? {} : { node: context.node }),
    ...(context.sealedMetadata === undefined ? {} : { sealedMetadata: context.sealedMetadata }),
  } satisfies CreateMultipartUploadRequest);
}

/** Completes the upload with every part's ETag, in part order; answers the stored file. */
export function completeMultipart(
  context: CallContext,
  target: PartTarget,
  parts: readonly CompletedPart[],
): Promise<FileListItem> {
  return callJson<FileListItem>(
    context,
    'POST',
    `${context.uploadsPath}/multipart/${seg(target.uploadId)}/complete`,
    {
      uploadId: target.uploadId,
      objectKey: target.objectKey,
      parts: [...parts].sort((a, b) => a.partNumber - b.partNumber),
    },
  );
}

/** Best-effort DELETE of the server-side upload; returns its error, if any. */
export async function abortMultipart(context: CallContext, uploadId: string): Promise<unknown> {
  try {
    await context.api.request('DELETE', `${context.uploadsPath}/multipart/${seg(uploadId)}`);
    return undefined;
  } catch (error) {
    return error ?? new Error('server-side abort failed');
  }
}

async function callJson<T>(context: CallContext, method: string, path: string, body: unknown): Promise<T> {
  throwIfAborted(context.signal);
  try {
    return await context.api.request<T>(method, path, { body, signal: context.signal });
  } catch (error) {
    throw toUploadError(error, context.signal);
  }
}

/** Errors of the JSON calls (fetch) in the upload's terms. */
function toUploadError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || isAbortError(error)) return new TransferAbortedError(uploadMessages.aborted);
  if (error instanceof ApiRequestError) return fromApiRequestError('upload', error);
  if (error instanceof TypeError)
    return new TransferError('NETWORK', uploadMessages.networkError, { cause: error });
  return error;
}
