/**
 * lib/zip: a streaming ZIP writer (issue 31), fed file after file by the download pipeline, so a
 * folder or a selection downloads as one archive with memory bounded whatever its total.
 */
export { Crc32, crc32 } from './crc32';
export { uniqueEntryPaths } from './entry-names';
export { ZipWriter, type ZipEntryOptions, type ZipOutput, type ZipWriterOptions } from './zip-writer';
export { downloadZip, type ZipDownloadOptions, type ZipFile, type ZipProgress } from './zip-download';
export { openZipSink } from './zip-save';
