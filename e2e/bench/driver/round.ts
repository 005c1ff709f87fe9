import { encryptedSizeFor } from '@coffer/contracts';
import { apiCall, type TestFile } from '../../helpers/files.js';
import { profiled } from '../measure/cpu-profile.js';
import { encryptedDownload, encryptedUpload } from './encrypted-transfers.js';
import { measure, TransferFailed, type Measured } from './measured-run.js';
import { plainDownload, plainUpload } from './plain-transfers.js';
import { deleteAllFiles, isControlled, type Harness } from './session.js';

/**
 * One round of a size's transfers in one browser session, plain twins before and after the
 * encrypted ones: plain upload, plain download, encrypted upload (no download yet), encrypted
 * download, [hook], encrypted upload again (after a download), plain upload again, plain download
 * again, [hook]. A size runs several rounds (`--rounds`), each in a fresh session, and its
 * speed verdicts take the median of the rounds' ratios: on a machine whose speed moves ±0.1 within
 * minutes one ratio at the edge of a target settles nothing.
 */
export interface Round {
  plainUp: Measured;
  plainDown: Measured;
  /** The first upload of a fresh session, before any download. */
  encUp: Measured;
  /** Null when the upload before it failed. */
  encDown: Measured | null;
  /** The same upload again, after that download has registered the download service worker. */
  encUpControlled: Measured;
  /** The plain transfers again, after the encrypted ones (the round's plain figure is the mean of both). */
  plainUpAgain: Measured;
  plainDownAgain: Measured;
  /** Whether the page was controlled by a service worker before each upload (checked, not assumed). */
  controlledBefore: [boolean, boolean];
}

/** What the first round does beside its transfers (the engine's own answers, the floors). */
export interface RoundHooks {
  /**
   * After every transfer of the round, the last plain object still stored (its id): the first round's
   * floors run here, so the heavy bare-cipher runs (gigabytes of fresh memory) come after the
   * transfers and leave them the state later rounds start from.
   */
  afterTransfers?: (plainId: string) => Promise<void>;
  /** After the encrypted download (the file still stored). */
  afterDownload?: () => Promise<void>;
}

/**
 * Runs one round in the harness's current session and leaves the encrypted file of the second
 * upload stored (the exchange shares it); every plain object is deleted.
 */
export async function runRound(
  h: Harness,
  file: TestFile,
  hashed: boolean,
  log: (what: string) => void,
  hooks: RoundHooks = {},
): Promise<Round> {
  let plainId = '';
  /** The plain upload (its object's id kept for the plain download), measured. */
  const measurePlainUpload = (): Promise<Measured> =>
    measure(
      h,
      async () => {
        plainId = '';
        const result = await plainUpload(h, file);
        plainId = result.fileId;
        return result.ms / 1000;
      },
      { blocking: true },
    );
  /** The plain download of what the last plain upload stored (failed at once where that failed). */
  const measurePlainDownload = (): Promise<Measured> =>
    measure(
      h,
      () =>
        plainId === ''
          ? Promise.reject(new TransferFailed('the plain upload before it failed', 0))
          : plainDownload(h, plainId, encryptedSizeFor(file.size)),
      { blocking: false },
    );
  const deletePlain = async (): Promise<void> => {
    if (plainId !== '') await apiCall(h.page, 'DELETE', `/users/files/${plainId}`);
    plainId = '';
  };

  log('plain upload');
  const plainUp = await measurePlainUpload();
  log('plain download');
  const plainDown = await measurePlainDownload();
  await deletePlain();

  log('encrypted upload (page not controlled by the service worker)');
  const controlledBefore: [boolean, boolean] = [await isControlled(h.page), false];
  const encUp = await measure(h, () => profiled(h, 'encrypted upload', () => encryptedUpload(h, file)), {
    blocking: true,
  });
  let encDown: Measured | null = null;
  if (encUp.failure === null) {
    log('encrypted download');
    await h.page.getByRole('link', { name: 'My Files' }).first().click();
    encDown = await measure(
      h,
      () => profiled(h, 'encrypted download', () => encryptedDownload(h, file, hashed)),
      { blocking: true },
    );
    await hooks.afterDownload?.();
    await deleteAllFiles(h.page);
  } else {
    log(`encrypted upload FAILED: ${encUp.failure}`);
  }

  log('encrypted upload again (after a download: page controlled by the service worker)');
  controlledBefore[1] = await isControlled(h.page);
  const encUpControlled = await measure(h, () => encryptedUpload(h, file), { blocking: true });
  if (encUpControlled.failure !== null) log(`encrypted upload FAILED: ${encUpControlled.failure}`);
  // The plain transfers once more, after the encrypted ones: the plain figure is their mean, so a
  // machine that sped up or slowed down during the round does not move its ratios alone.
  log('plain upload again');
  const plainUpAgain = await measurePlainUpload();
  log('plain download again');
  const plainDownAgain = await measurePlainDownload();
  await hooks.afterTransfers?.(plainId);
  await deletePlain();
  return {
    plainUp,
    plainDown,
    encUp,
    encDown,
    encUpControlled,
    plainUpAgain,
    plainDownAgain,
    controlledBefore,
  };
}
