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
import { cryptoWorkerPath } from './bench-stack.js';
import { shareAndReceive, type Exchange } from './exchange.js';
import { measure, type Measured } from './measured-run.js';
import { plainDownload, plainUpload } from './plain-transfers.js';
import { runRound, type Round } from './round.js';
import { deleteAllFiles, openSession, type Harness } from './session.js';

/** A size's results: its first round's transfers (flat, as the tables name them) and what only it measures. */
export interface SizeResult extends Round {
  gib: number;
  size: number;
  hashed: boolean;
  bare1: BareCrypto;
  bare2: BareCrypto;
  /** WebCrypto's own memory per chunk-sized call, measured in this size's session. */
  footprint: CipherFootprint;
  /** The plain upload and bare encryption at once (`plainWithBareCipher`): the upload's floor. */
  floorUp: Measured;
  /** The plain download and bare decryption at once: the download's floor. */
  floorDown: Measured;
  /** The second persons' downloads of the shared file, when --exchange-gib named this size. */
  exchanges: Exchange[];
  /** How the engine computed: the crypto worker's answer (uploads), the service worker's (downloads). */
  engine: EngineStatus;
  /** Rounds 2… (`--rounds`), each in a fresh session: the same transfers, for the median ratios. */
  moreRounds: Round[];
}

export async function runSize(
  h: Harness,
  person: TestPerson,
  gib: number,
  hashMaxGib: number,
  exchangeGib: number,
  exchangeRuns: number,
  rounds: number,
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

    /** Measured at the end of the first round, after its transfers. */
    const floors: { up?: Measured; down?: Measured } = {};

    const hashed = gib <= hashMaxGib;
    const first = await runRound(h, file, hashed, log, {
      afterTransfers: async (plainId) => {
        log('plain download with bare decryption at the same time (the floor)');
        const decrypting = await bareCipherInWorker(h.page, size, 'decrypt');
        floors.down = await measure(
          h,
          () => plainWithBareCipher(decrypting, () => plainDownload(h, plainId, encryptedSizeFor(size))),
          { blocking: false },
        );
        log('plain upload with bare encryption at the same time (the floor)');
        const encrypting = await bareCipherInWorker(h.page, size, 'encrypt');
        let floorId = '';
        floors.up = await measure(
          h,
          () =>
            plainWithBareCipher(encrypting, async () => {
              floorId = (await plainUpload(h, file)).fileId;
            }),
          { blocking: false },
        );
        if (floorId !== '') await apiCall(h.page, 'DELETE', `/users/files/${floorId}`);
      },
      afterDownload: async () => {
        engine.serviceWorker = await h.page.evaluate(serviceWorkerStatusInPage);
        log(`the download service worker opens in ${computedAs(engine.serviceWorker)}`);
        log(
          `where it runs a download alone, it keeps chunks in ${(await h.page.evaluate(serviceWorkerChunksInPage)) ?? 'an unknown store'}`,
        );
      },
    });
    const { up: floorUp, down: floorDown } = floors;
    // After the transfers too: each bare run leaves the page's allocator gigabytes of freed memory.
    log('bare AES-GCM');
    const bare1 = await bareAesGcm(h.page, size, 1);
    const bare2 = await bareAesGcm(h.page, size, 2);
    log("WebCrypto's memory per chunk-sized call");
    const footprint = await cipherFootprint(h);
    if (floorUp === undefined || floorDown === undefined)
      throw new Error('the first round measured no floors');
    const exchanges: Exchange[] = [];
    for (
      let run = 1;
      gib === exchangeGib && first.encUpControlled.failure === null && run <= exchangeRuns;
      run++
    ) {
      log(`sharing with a second person, who downloads it (${run} of ${exchangeRuns})`);
      exchanges.push(await shareAndReceive(h, file, gib <= hashMaxGib));
      log(`  received in ${exchanges.at(-1)?.seconds.toFixed(1) ?? '?'} s`);
    }
    await deleteAllFiles(h.page);
    const moreRounds: Round[] = [];
    for (let round = 2; round <= rounds; round++) {
      await h.context.close();
      log(`round ${round} of ${rounds}: signing in (fresh context)`);
      await openSession(h, person, false);
      const roundLog = (what: string): void => {
        log(`round ${round}: ${what}`);
      };
      moreRounds.push(await runRound(h, file, hashed, roundLog));
      await deleteAllFiles(h.page);
    }
    log('done');
    return {
      ...first,
      gib,
      size,
      hashed,
      bare1,
      bare2,
      footprint,
      floorUp,
      floorDown,
      exchanges,
      engine,
      moreRounds,
    };
  } finally {
    await h.context.close().catch(() => undefined);
    await rm(file.path, { force: true });
  }
}
