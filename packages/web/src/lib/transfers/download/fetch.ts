import { API_PREFIX, downloadMessages } from '@coffer/contracts';
import { downloadHttpErrorMessage, DOWNLOAD_NETWORK_ERROR_TEXT } from '../error-mapping';
import { TransferAbortedError, TransferError, isAbortError } from '../transfer-errors';
import type { OpenedStream } from './resumable-reader';

/**
 * The download's fetch stage (docs/transfers.md, "Pipeline"): the content's GET, from an offset
 * (`Range`) when resuming. `ResumableReader` (`resumable-reader.ts`) reads the answers one whole
 * encrypted chunk at a time and asks again from a chunk's first byte when the connection breaks.
 */

/** Where a download's content is, and how a resumed request says it continues a counted one. */
export interface ContentLocation {
  /** API path of the content, e.g. `/users/files/{id}/download`. */
  readonly downloadPath: string;
  /** The API prefix (default `/api`). */
  readonly apiBaseUrl?: string;
  /**
   * A header the first answer carries and every resumed (`Range`) request sends back: a link's
   * counted download token (`x-link-download`, issue 30), so a resumed download is not counted again.
   */
  readonly resumeTokenHeader?: string;
}

/** The resume token each running job's first answer gave (the job object is the same for its requests). */
const resumeTokens = new WeakMap<object, string>();

/**
 * GET the content with the given headers, from `offset` on (a `Range` request, answered 206) when
 * resuming or reading a window, up to and including byte `end` where given; a non-ok answer becomes
 * the spec's text (its status kept: 401 signs the user out).
 */
export async function openDownloadStream(
  fetchImpl: typeof fetch,
  job: ContentLocation,
  authHeaders: Record<string, string>,
  offset: number,
  signal: AbortSignal,
  end?: number,
): Promise<OpenedStream> {
  const headers: Record<string, string> = { ...authHeaders };
  if (offset > 0) headers.Range = `bytes=${offset}-${end ?? ''}`;
  const tokenHeader = job.resumeTokenHeader;
  const token = resumeTokens.get(job);
  if (tokenHeader !== undefined && offset > 0 && token !== undefined) headers[tokenHeader] = token;
  let response: Response;
  try {
    response = await fetchImpl(`${job.apiBaseUrl ?? API_PREFIX}${job.downloadPath}`, { headers, signal });
  } catch (error) {
    throw normalizeDownloadError(error);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new TransferError('HTTP', downloadHttpErrorMessage(response.status, response.statusText, text), {
      status: response.status,
    });
  }
  if (response.body === null) throw new TransferError('HTTP', downloadMessages.defaultError);
  const issued = tokenHeader === undefined ? null : response.headers.get(tokenHeader);
  if (issued !== null) resumeTokens.set(job, issued);
  return { body: response.body, offset: response.status === 206 ? rangeStart(response) : 0 };
}

/** The first byte of a 206 answer (`Content-Range: bytes <start>-<end>/<size>`); NaN if unreadable. */
function rangeStart(response: Response): number {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('Content-Range') ?? '');
  return match === null ? Number.NaN : Number(match[1]);
}

/** Aborts and network failures as the transfer errors the screens show; anything else unchanged. */
export function normalizeDownloadError(error: unknown): unknown {
  if (error instanceof TransferError) return error;
  if (isAbortError(error)) return new TransferAbortedError(downloadMessages.aborted, { cause: error });
  if (error instanceof TypeError)
    return new TransferError('NETWORK', DOWNLOAD_NETWORK_ERROR_TEXT, { cause: error });
  return error;
}
