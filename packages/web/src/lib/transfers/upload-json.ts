import { uploadMessages } from '@coffer/contracts';
import { TransferError } from './transfer-errors';

/** The JSON body of a 2xx upload answer; an unreadable one fails with the spec's default text. */
export function parseJsonAnswer(responseText: string): unknown {
  try {
    return JSON.parse(responseText) as unknown;
  } catch (cause) {
    throw new TransferError('HTTP', uploadMessages.defaultError, { cause });
  }
}
