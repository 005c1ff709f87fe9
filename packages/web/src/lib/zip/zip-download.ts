import type { ApiClient } from '../api/http';
import type { ChunkCipher } from '../crypto-worker';
import {
  runDownloadPipeline,
  type DownloadHost,
  type DownloadJob,
  type PipelineProgress,
} from '../transfers/download/download-run';
import { openDownloadStream } from '../transfers/download/fetch';
import type { ResolvedSaveMethod, SaveSink } from '../transfers/save/save-sink';
import { TransferAbortedError } from '../transfers/transfer-errors';
import { uniqueEntryPaths } from './entry-names';
import { openZipSink } from './zip-save';
import { ZipWriter } from './zip-writer';

/** One file of the archive: where it goes, its size, and how to reach its content. */
export interface ZipFile {
  /** Folder names from the archive's top, then the file's name (neutralised here). */
  readonly path: readonly string[];
  readonly size: number;
  /** Its decrypting download: the file key (unwrapped from the tree) and its content path. */
  readonly job: () => Promise<DownloadJob>;
  readonly modified?: Date;
}

export interface ZipProgress {
  readonly filesDone: number;
  readonly files: number;
  readonly bytesDone: number;
  readonly bytes: number;
  /** The file being added (its entry path). */
  readonly current: string;
}

export interface ZipDownloadOptions {
  readonly api: ApiClient;
  readonly cipher: ChunkCipher;
  /** The archive's name in the browser's downloads ("Photos.zip"). */
  readonly fileName: string;
  readonly files: readonly ZipFile[];
  /** Folder paths to include as entries (so empty folders are kept). */
  readonly directories?: readonly (readonly string[])[];
  readonly method: ResolvedSaveMethod;
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: ZipProgress) => void;
  /** Tests: another sink. */
  readonly openSink?: (method: ResolvedSaveMethod, fileName: string, size: number) => Promise<SaveSink>;
  /** Tests: runs the pipeline on this page with this fetch instead of the crypto worker. */
  readonly fetchImpl?: typeof fetch;
}

/**
 * Downloads files as ONE streaming ZIP: the sink opens first (inside the click for the picker),
 * then each file goes through the ordinary decrypting download pipeline (the crypto worker fetches,
 * verifies and decrypts chunk by chunk, resuming broken connections) into the ZIP writer, which
 * passes every piece straight on to the sink. Memory holds the pipeline's chunks in flight and
 * the central directory, never the archive. A failure or a cancel aborts the sink: no
 * complete-looking archive is left.
 */
export async function downloadZip(options: ZipDownloadOptions): Promise<void> {
  const total = options.files.reduce((sum, file) => sum + file.size, 0);
  const sinkOpening = (options.openSink ?? openZipSink)(options.method, options.fileName, total);
  let sink: SaveSink | null = null;
  const paths = uniqueEntryPaths([...(options.directories ?? []), ...options.files.map((file) => file.path)]);
  const directoryPaths = paths.slice(0, options.directories?.length ?? 0);
  const filePaths = paths.slice(directoryPaths.length);
  try {
    sink = await sinkOpening;
    const out = sink;
    const writer = new ZipWriter((bytes) => out.write(bytes));
    for (const directory of directoryPaths) await writer.directory(directory);
    let bytesDone = 0;
    for (const [index, file] of options.files.entries()) {
      if (options.signal.aborted) throw new TransferAbortedError('Download was aborted');
      const current = filePaths[index] ?? String(index);
      const report = (done: number): void => {
        options.onProgress?.({
          filesDone: index,
          files: options.files.length,
          bytesDone: bytesDone + done,
          bytes: total,
          current,
        });
      };
      report(0);
      await writer.entry(current, { size: file.size, ...(file.modified ? { modified: file.modified } : {}) });
      await runOne(options, await file.job(), writer, report);
      await writer.endEntry();
      bytesDone += file.size;
    }
    await writer.finish();
    options.onProgress?.({
      filesDone: options.files.length,
      files: options.files.length,
      bytesDone: total,
      bytes: total,
      current: '',
    });
    await sink.close();
  } catch (error) {
    const opened = sink ?? (await sinkOpening.catch(() => null));
    await opened?.abort(error);
    throw options.signal.aborted && !(error instanceof TransferAbortedError)
      ? new TransferAbortedError('Download was aborted', { cause: error })
      : error;
  }
}

/** One file through the pipeline, its plaintext into the open entry. */
async function runOne(
  options: ZipDownloadOptions,
  job: DownloadJob,
  writer: ZipWriter,
  report: (done: number) => void,
): Promise<void> {
  // The entry is the pipeline's sink: its pieces go into the archive; its end is the entry's.
  const entrySink: SaveSink = {
    write: (bytes) => writer.write(bytes),
    close: () => Promise.resolve(),
    abort: () => Promise.resolve(),
  };
  const progress: PipelineProgress = {
    text: () => undefined,
    fraction: (done, all) => {
      report(all > 0 ? Math.round((done / all) * job.size) : 0);
    },
  };
  const host: DownloadHost = {
    headers: () => options.api.authHeaders(),
    openSink: () => Promise.resolve(entrySink),
    progress,
    signal: options.signal,
  };
  if (options.fetchImpl === undefined && options.cipher.runDownload !== undefined) {
    await options.cipher.runDownload(job, host);
    return;
  }
  const doFetch = options.fetchImpl ?? ((input: string, init?: RequestInit) => fetch(input, init));
  await runDownloadPipeline({
    job,
    open: async (offset, signal, end) =>
      openDownloadStream(doFetch as typeof fetch, job, await host.headers(), offset, signal, end),
    decrypt: (key, index, isLast, encrypted) => options.cipher.decrypt(key, index, isLast, encrypted),
    openSink: () => host.openSink(),
    progress,
    signal: options.signal,
  });
}
