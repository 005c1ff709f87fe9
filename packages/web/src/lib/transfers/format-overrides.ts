import { CHUNK_SIZE, DIRECT_UPLOAD_THRESHOLD } from '@coffer/contracts';

/**
 * Smaller sizes for the engine's own unit tests, so multi-chunk and multipart paths run on
 * kilobytes. Production code never passes these: the format's chunk size C and the spec's 100 MB
 * threshold apply.
 */
export interface TestFormatOverrides {
  readonly chunkSize?: number;
  readonly directUploadThreshold?: number;
}

export interface TransferFormat {
  readonly chunkSize: number;
  readonly directUploadThreshold: number;
}

export function transferFormat(overrides?: TestFormatOverrides): TransferFormat {
  return {
    chunkSize: overrides?.chunkSize ?? CHUNK_SIZE,
    directUploadThreshold: overrides?.directUploadThreshold ?? DIRECT_UPLOAD_THRESHOLD,
  };
}
