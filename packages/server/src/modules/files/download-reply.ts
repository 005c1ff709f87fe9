import type { FastifyReply } from 'fastify';
import { downloadBodyFor } from './download-stream.js';
import type { Download } from './downloads.service.js';
import { RangeNotSatisfiableError } from './downloads.service.js';

/**
 * Streams a download. The file name is metadata the client decrypts and applies itself, so
 * `Content-Disposition` names no file.
 */
export function sendDownload(reply: FastifyReply, download: Download): FastifyReply {
  reply
    .status(download.partial ? 206 : 200)
    .header('content-type', 'application/octet-stream')
    .header('content-length', String(download.size))
    .header('accept-ranges', 'bytes')
    .header('content-disposition', 'attachment')
    .header('cache-control', 'private, no-store');
  if (download.partial) {
    reply.header('content-range', `bytes ${download.start}-${download.end}/${download.totalSize}`);
  }
  // Fastify destroys the stream when the client goes away, which closes the blob store's body.
  return reply.send(downloadBodyFor(reply.raw, download.body, download.buffers));
}

/** Runs `open`; a 416 answer carries `Content-Range: bytes *\/size` as RFC 9110 asks. */
export async function openOrAnswerRange(
  reply: FastifyReply,
  open: () => Promise<Download>,
): Promise<Download> {
  try {
    return await open();
  } catch (error) {
    if (error instanceof RangeNotSatisfiableError) {
      reply.header('accept-ranges', 'bytes').header('content-range', `bytes */${error.totalSize}`);
    }
    throw error;
  }
}
