import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { encryptedSizeFor } from '@coffer/contracts';
import type { TestPerson } from '../../helpers/auth.js';
import { apiCall, writeTestFile } from '../../helpers/files.js';
import { GIB } from '../bench-units.js';
import {
  bareAesGcm,
  bareCipherInWorker,
  plainWithBareCipher,
  type BareCrypto,
} from '../measure/bare-cipher.js';
import { cipherFootprint, type CipherFootprint } from '../measure/cipher-footprint.js';
import {
  computedAs,
  cryptoWorkerStatusInPage,
  serviceWorkerChunksInPage,
  serviceWorkerStatusInPage,
  type EngineStatus,
} from '../measure/engine-status.js';
import { profiled } from '../measure/cpu-profile.js';
import { cryptoWorkerPath } from './bench-stack.js';
import { encryptedDownload, encryptedUpload } from './encrypted-transfers.js';
import { shareAndReceive, type Exchange } from './exchange.js';
import { measure, TransferFailed, type Measured } from './measured-run.js';
import { plainDownload, plainUpload } from './plain-transfers.js';
import { deleteAllFiles, isControlled, openSession, type Harness } from './session.js';

export interface SizeResult {
  gib: number;
  size: number;
  hashed: boolean;
  bare1: BareCrypto;
  bare2: BareCrypto;
  /** WebCrypto's own memory per chunk-sized call, measured in this size's session. */
  footprint: CipherFootprint;
  plainUp: Measured;
  plainDown: Measured;
  /** The same plain transfers again, after the encrypted ones (the plain figure is the mean of both). */
  plainUpAgain: Measured;
  plainDownAgain: Measured;
  /** The plain upload and bare encryption at once (`plainWithBareCipher`): the upload's floor. */
  floorUp: Measured;
  /** The plain download and bare decryption at once: the download's floor. */
  floorDown: Measured;
  /** The first upload of a fresh session, before any download. */
  encUp: Measured;
  /** Null when the upload before it failed. */
  encDown: Measured | null;
  /** The same upload again, after that download has registered the download service worker. */
  encUpControlled: Measured;
  /** Whether the page was controlled by a service worker before each upload (checked, not assumed). */
  controlledBefore: [boolean, boolean];
  /** The second persons' downloads of the shared file, when --exchange-gib named this size. */
  exchanges: Exchange[];
  /** How the engine computed: the crypto worker's answer (uploads), the service worker's (downloads). */
  engine: EngineStatus;
}

export async function runSize(
  h: Harness,
  person: TestPerson,
  gib: number,
  hashMaxGib: number,
  exchangeGib: number,
  exchangeRuns: number,
): Promise<SizeResult> {
  const size = Math.round(gib * GIB);
  const log = (what: string): void => {
    console.log(`[${gib} GiB] ${what} (load ${loadavg()[0]?.toFixed(1) ?? '?'})`);
  };
  log('writing the test file');
  const file = await writeTestFile(h.dir, `bench-${gib}gib.bin`, size, `COFFER-BENCH-${Date.now()}`);
  try {
    log('signing in (fresh context)');
    await openSession(h, person, false);

    const engine: EngineStatus = {
      cryptoWorker: await h.page.evaluate(cryptoWorkerStatusInPage, cryptoWorkerPath()),
      serviceWorker: null,
    };
    log(`the crypto worker seals in ${computedAs(engine.cryptoWorker)}`);

    log('bare AES-GCM');
    const bare1 = await bareAesGcm(h.page, size, 1);
    const bare2 = await bareAesGcm(h.page, size, 2);
    log("WebCrypto's memory per chunk-sized call");
    const footprint = await cipherFootprint(h);

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
            : plainDownload(h, plainId, encryptedSizeFor(size)),
        { blocking: false },
      );
    log('plain upload');
    const plainUp = await measurePlainUpload();
    log('plain download');
    const plainDown = await measurePlainDownload();
    log('plain download with bare decryption at the same time (the floor)');
    const decrypting = await bareCipherInWorker(h.page, size, 'decrypt');
    const floorDown = await measure(
      h,
      () => plainWithBareCipher(decrypting, () => plainDownload(h, plainId, encryptedSizeFor(size))),
      { blocking: false },
    );
    await apiCall(h.page, 'DELETE', `/users/files/${plainId}`);
    log('plain upload with bare encryption at the same time (the floor)');
    const encrypting = await bareCipherInWorker(h.page, size, 'encrypt');
    const floorUp = await measure(
      h,
      () =>
        plainWithBareCipher(encrypting, async () => {
          plainId = (await plainUpload(h, file)).fileId;
        }),
      { blocking: false },
    );
    await apiCall(h.page, 'DELETE', `/users/files/${plainId}`);

    log('encrypted upload (page not controlled by the service worker)');
    const controlledBefore: [boolean, boolean] = [await isControlled(h.page), false];
    const encUp = await measure(h, () => profiled(h, 'encrypted upload', () => encryptedUpload(h, file)), {
      blocking: true,
    });
    let encDown: Measured | null = null;
    if (encUp.failure === null) {
      log('encrypted download');
      await h.page.getByRole('link', { name: 'My Files' }).first().click();
      const hashed = gib <= hashMaxGib;
      encDown = await measure(
        h,
        () => profiled(h, 'encrypted download', () => encryptedDownload(h, file, hashed)),
        { blocking: true },
      );
      engine.serviceWorker = await h.page.evaluate(serviceWorkerStatusInPage);
      log(`the download service worker opens in ${computedAs(engine.serviceWorker)}`);
      log(
        `where it runs a download alone, it keeps chunks in ${(await h.page.evaluate(serviceWorkerChunksInPage)) ?? 'an unknown store'}`,
      );
      await deleteAllFiles(h.page);
    } else {
      log(`encrypted upload FAILED: ${encUp.failure}`);
    }

    log('encrypted upload again (after a download: page controlled by the service worker)');
    controlledBefore[1] = await isControlled(h.page);
    const encUpControlled = await measure(h, () => encryptedUpload(h, file), { blocking: true });
    if (encUpControlled.failure !== null) log(`encrypted upload FAILED: ${encUpControlled.failure}`);
    // The plain transfers once more, after the encrypted ones: the plain figure is their mean, so a
    // machine that sped up or slowed down during the run does not move the ratios alone.
    log('plain upload again');
    const plainUpAgain = await measurePlainUpload();
    log('plain download again');
    const plainDownAgain = await measurePlainDownload();
    if (plainId !== '') await apiCall(h.page, 'DELETE', `/users/files/${plainId}`);
    const exchanges: Exchange[] = [];
    for (let run = 1; gib === exchangeGib && encUpControlled.failure === null && run <= exchangeRuns; run++) {
      log(`sharing with a second person, who downloads it (${run} of ${exchangeRuns})`);
      exchanges.push(await shareAndReceive(h, file, gib <= hashMaxGib));
      log(`  received in ${exchanges.at(-1)?.seconds.toFixed(1) ?? '?'} s`);
    }
    await deleteAllFiles(h.page);
    log('done');
    return {
      gib,
      size,
      hashed: gib <= hashMaxGib,
      bare1,
      bare2,
      footprint,
      plainUp,
      plainDown,
      plainUpAgain,
      plainDownAgain,
      floorUp,
      floorDown,
      encUp,
      encDown,
      encUpControlled,
      exchanges,
      controlledBefore,
      engine,
    };
  } finally {
    await h.context.close().catch(() => undefined);
    await rm(file.path, { force: true });
  }
}
