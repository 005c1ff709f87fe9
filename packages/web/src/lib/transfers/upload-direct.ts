import type { FileListItem } from '@coffer/contracts';
import { encryptedSize } from '@coffer/crypto';
import {
  createUploadPhase,
  createUploadWork,
  encryptFileChunk,
  throwIfAborted,
  uploadHeaders,
  type UploadContext,
} from './upload-context';
import { parseJsonAnswer } from './upload-json';
import { sendUploadXhr } from './upload-xhr';

/**
 * Files up to the direct threshold: encrypt every chunk (one, or two when the file is between
 * C and 100 MB), join the ciphertext pieces into one Blob (no ArrayBuffer copy) and POST it as
 * multipart/form-data. The server reads the text fields before the file part, so they go first.
 */
export async function uploadDirect(context: UploadContext): Promise<FileListItem> {
  const phase = createUploadPhase(context.reporter, context.chunkCount);
  const expectedBytes = encryptedSize(context.file.size, context.chunkSize);
  // The form's few text fields make the body a little larger than the ciphertext: `total` says how much.
  let sendTotal = expectedBytes;
  const work = createUploadWork(context.reporter, context.file.size, expectedBytes);
  const pieces: Blob[] = [];
  for (let index = 0; index < context.chunkCount; index++) {
    phase.encrypting(index);
    pieces.push(await encryptFileChunk(context, index, work));
  }
  phase.encrypting(null);
  throwIfAborted(context.signal);

  const form = new FormData();
  form.append('name', context.file.name);
  form.append('contentType', context.contentType);
  form.append('size', String(context.file.size));
  form.append('isEncrypted', 'true');
  form.append('encryptionInfo', JSON.stringify(context.encryptionInfo));
  if (context.manifest !== undefined) form.append('manifest', context.manifest);
  form.append('file', new Blob(pieces, { type: 'application/octet-stream' }), context.file.name);

  phase.uploading(true);
  const answer = await sendUploadXhr(
    {
      method: 'POST',
      url: `${context.apiBaseUrl}/users/uploads/direct`,
      headers: await uploadHeaders(context),
      body: form,
      signal: context.signal,
      onProgress: (loaded, total) => {
        sendTotal = total ?? sendTotal;
        work.sent((loaded / sendTotal) * expectedBytes);
      },
      onUnauthorized: () => {
        context.api.reportUnauthorized();
      },
    },
    context.createXhr,
  );
  return parseJsonAnswer(answer.responseText) as FileListItem;
}
