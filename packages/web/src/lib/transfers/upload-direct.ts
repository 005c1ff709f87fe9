import type { FileListItem } from '@coffer/contracts';
import { encryptedSize } from '@coffer/crypto';
import type { SealedPart } from '../crypto-worker/chunk-cipher';
import {
  createUploadPhase,
  createUploadWork,
  encryptFileChunk,
  encryptFilePart,
  sentNameAndType,
  throwIfAborted,
  uploadHeaders,
  type UploadContext,
} from './upload-context';
import { parseJsonAnswer } from './upload-json';
import { sendUploadXhr } from './upload-xhr';

/**
 * Files up to the direct threshold: encrypt every chunk (one, or two when the file is between
 * C and 100 MB) and POST the ciphertext as one multipart/form-data file. The server reads the text
 * fields before the file part, so they go first. Where the cipher runs in the crypto worker, the
 * chunks are sealed there and the worker sends the form (`sendForm`): the page never holds the
 * ciphertext. Elsewhere the page joins the ciphertext pieces into one Blob (no ArrayBuffer copy).
 */
export async function uploadDirect(context: UploadContext): Promise<FileListItem> {
  const phase = createUploadPhase(context.reporter, context.chunkCount);
  const expectedBytes = encryptedSize(context.file.size, context.chunkSize);
  // The form's few text fields make the body a little larger than the ciphertext: `total` says how much.
  let sendTotal = expectedBytes;
  const work = createUploadWork(context.reporter, context.file.size, expectedBytes);
  const sent = sentNameAndType(context);
  const fields: [string, string][] = [
    ['name', sent.name],
    ['contentType', sent.contentType],
    ['size', String(context.file.size)],
    ['isEncrypted', 'true'],
    ['encryptionInfo', JSON.stringify(context.encryptionInfo)],
    ...(context.manifest === undefined ? [] : [['manifest', context.manifest] as [string, string]]),
    ...(context.node === undefined ? [] : [['node', JSON.stringify(context.node)] as [string, string]]),
  ];
  const request = {
    url: `${context.apiBaseUrl}${context.uploadsPath}/direct`,
    signal: context.signal,
    onProgress: (loaded: number, total: number | null) => {
      sendTotal = total ?? sendTotal;
      work.sent((loaded / sendTotal) * expectedBytes);
    },
    onUnauthorized: () => {
      context.api.reportUnauthorized();
    },
  };

  const sendForm = context.cipher.sendForm;
  if (context.cipher.sealPart !== undefined && sendForm !== undefined) {
    const parts: SealedPart[] = [];
    try {
      for (let index = 0; index < context.chunkCount; index++) {
        phase.waitingFor(index);
        parts.push(await encryptFilePart(context, index, work));
      }
      phase.waitingFor(null);
      throwIfAborted(context.signal);
      phase.bytesMoving(true);
      const answer = await sendForm(parts, {
        ...request,
        headers: await uploadHeaders(context),
        form: { fields, field: 'file', fileName: sent.name },
      });
      return parseJsonAnswer(answer.responseText) as FileListItem;
    } finally {
      for (const part of parts) part.release();
    }
  }

  const pieces: Blob[] = [];
  for (let index = 0; index < context.chunkCount; index++) {
    phase.waitingFor(index);
    pieces.push(await encryptFileChunk(context, index, work));
  }
  phase.waitingFor(null);
  throwIfAborted(context.signal);

  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append('file', new Blob(pieces, { type: 'application/octet-stream' }), sent.name);

  phase.bytesMoving(true);
  const answer = await sendUploadXhr(
    { ...request, method: 'POST', headers: await uploadHeaders(context), body: form },
    context.createXhr,
  );
  return parseJsonAnswer(answer.responseText) as FileListItem;
}
