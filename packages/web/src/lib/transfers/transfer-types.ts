import type { UploadPipelineStatus } from '@coffer/contracts';

export type TransferKind = 'upload' | 'download';

/** queued → processing → complete | failed | aborted (spec section 4). Downloads start at processing. */
export type TransferStatus = UploadPipelineStatus;

/** One progress report: a percentage in 0.5 steps and the spec's status text. */
export interface TransferProgress {
  readonly percent: number;
  readonly text: string;
}

export type ProgressListener = (progress: TransferProgress) => void;
