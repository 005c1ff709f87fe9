import { noEtagText, uploadMessages, type UploadPartResponse } from '@coffer/contracts';
import { seg } from '../../api/http';
import { CryptoWorkerError, type SealedPart } from '../../crypto-worker/chunk-cipher';
import { TransferError, isRetryableTransferError, waitBeforeRetry } from '../transfer-errors';
import { parseJsonAnswer } from '../upload-json';
import { sendUploadXhr, type XhrAnswer } from '../upload-xhr';
import { sentNameAndType, uploadHeaders, type UploadContext } from './upload-context';

/**
 * The upload's send stage (docs/transfers.md, "Pipeline"): a held part PUT to its multipart URL with
 * its retries, or a direct upload's form POST. The bearer header is fetched for each request (the
 * token may have been renewed), and a 401 tells the session.
 */
export type SendContext = Pick<
  UploadContext,
  'api' | 'apiBaseUrl' | 'uploadsPath' | 'signal' | 'retryDelaysMs'
>;

/** The multipart upload on the server that a part belongs to. */
export interface PartTarget {
  readonly uploadId: string;
  readonly objectKey: string;
}

/**
 * PUTs `held.part` as part `partNumber` and answers its ETag. A network error or a 5xx/429 answer is
 * retried after each of `retryDelaysMs`; a part lost with its crypto worker (a crash, the browser
 * ending it) is replaced by `sealAgain()` (a new IV, the same plaintext) and sent at once, within
 * the same retries. `held.part` is the part in use at the end (the caller releases it).
 */
export async function sendPart(
  context: SendContext,
  target: PartTarget,
  partNumber: number,
  held: { part: SealedPart },
  onProgress: (loaded: number) => void,
  sealAgain: () => Promise<SealedPart>,
): Promise<string> {
  const url =
    `${context.apiBaseUrl}${context.uploadsPath}/multipart/${seg(target.uploadId)}/part/${partNumber}` +
    `?objectKey=${encodeURIComponent(target.objectKey)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await held.part.send({
        url,
        headers: { ...(await uploadHeaders(context)), 'Content-Type': 'application/octet-stream' },
        signal: context.signal,
        onProgress,
        onUnauthorized: () => {
          context.api.reportUnauthorized();
        },
      });
      const etag = readEtag(answer.responseText, answer.header('ETag'));
      if (etag === null) throw new TransferError('NO_ETAG', noEtagText(partNumber));
      return etag;
    } catch (error) {
      const delay = context.retryDelaysMs[attempt];
      const lost = error instanceof CryptoWorkerError;
      if (delay === undefined || !(lost || isRetryableTransferError(error))) throw error;
      if (lost) {
        held.part.release();
        held.part = await sealAgain();
      } else {
        await waitBeforeRetry(delay, context.signal, uploadMessages.aborted);
      }
    }
  }
}

function readEtag(responseText: string, header: string | null): string | null {
  let etag: unknown = null;
  try {
    etag = (parseJsonAnswer(responseText) as Partial<UploadPartResponse> | null)?.etag;
  } catch {
    // Not JSON: fall back to the header.
  }
  if (typeof etag === 'string' && etag !== '') return etag;
  return header !== null && header !== '' ? header : null;
}

/** What a direct upload's form carries besides the file: the text fields the server reads first. */
export type DirectContext = SendContext &
  Pick<
    UploadContext,
    | 'file'
    | 'contentType'
    | 'encryptionInfo'
    | 'manifest'
    | 'node'
    | 'sealedMetadata'
    | 'cipher'
    | 'createXhr'
  >;

/** Where the direct upload's file content is: parts the crypto worker holds, or Blobs of the page. */
export type DirectContent = { readonly held: readonly SealedPart[] } | { readonly pieces: readonly Blob[] };

/**
 * POSTs a direct upload: the form's text fields, then the encrypted chunks in order as its one
 * file. Parts the crypto worker holds are sent by it (`ChunkCipher.sendForm`: the page never holds
 * the ciphertext); Blobs of the page by the page's XHR. `onProgress` hears the body's bytes sent
 * and its total (a little more than the ciphertext: the fields).
 */
export async function sendDirect(
  context: DirectContext,
  content: DirectContent,
  onProgress: (loaded: number, total: number | null) => void,
): Promise<XhrAnswer> {
  const sent = sentNameAndType(context);
  const fields: [string, string][] = [
    ['name', sent.name],
    ['contentType', sent.contentType],
    ['size', String(context.file.size)],
    ['isEncrypted', 'true'],
    ['encryptionInfo', JSON.stringify(context.encryptionInfo)],
    ...(context.manifest === undefined ? [] : [['manifest', context.manifest] as [string, string]]),
    ...(context.node === undefined ? [] : [['node', JSON.stringify(context.node)] as [string, string]]),
    ...(context.sealedMetadata === undefined
      ? []
      : [['sealedMetadata', JSON.stringify(context.sealedMetadata)] as [string, string]]),
  ];
  const request = {
    url: `${context.apiBaseUrl}${context.uploadsPath}/direct`,
    signal: context.signal,
    onProgress,
    onUnauthorized: () => {
      context.api.reportUnauthorized();
    },
  };
  if ('held' in content) {
    const sendForm = context.cipher.sendForm;
    if (sendForm === undefined) throw new CryptoWorkerError('This cipher holds no parts to send');
    return sendForm(content.held, {
      ...request,
      headers: await uploadHeaders(context),
      form: { fields, field: 'file', fileName: sent.name },
    });
  }
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append('file', new Blob([...content.pieces], { type: 'application/octet-stream' }), sent.name);
  return sendUploadXhr(
    { ...request, method: 'POST', headers: await uploadHeaders(context), body: form },
    context.createXhr,
  );
}
