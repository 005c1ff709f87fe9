import { idbConnection, idbRequest as promisify, idbTransactionDone } from '../storage/idb';
import { createMemoryPinHighWater, type PinHighWaterStore } from './pin-high-water';

/**
 * Its own database, apart from the unlocked keys (`coffer-keys`): logout deletes those, and must
 * keep these. Only `{id, version}` pairs are stored.
 */
const DB_NAME = 'coffer-trust';
const DB_VERSION = 1;
const STORE = 'pin-high-water';

interface Mark {
  id: string;
  version: number;
}

/**
 * The pin set high-water marks in IndexedDB. A raise reads and writes in one transaction, so two
 * tabs raising at once keep the higher mark. Where IndexedDB fails (some private windows), the marks
 * are kept in memory for this tab instead: rollback is then caught until the tab closes.
 */
export function createIndexedDbPinHighWater(factory: IDBFactory = indexedDB): PinHighWaterStore {
  const fallback = createMemoryPinHighWater();
  const db = idbConnection(factory, { name: DB_NAME, version: DB_VERSION, stores: { [STORE]: 'id' } });

  async function stored(id: string): Promise<number> {
    const tx = (await db()).transaction(STORE, 'readonly');
    const mark = (await promisify(tx.objectStore(STORE).get(id))) as Mark | undefined;
    return mark?.version ?? 0;
  }

  async function raiseStored(id: string, version: number): Promise<void> {
    const tx = (await db()).transaction(STORE, 'readwrite');
    const done = idbTransactionDone(tx);
    const store = tx.objectStore(STORE);
    const mark = (await promisify(store.get(id))) as Mark | undefined;
    if (version > (mark?.version ?? 0)) store.put({ id, version } satisfies Mark);
    await done;
  }

  return {
    async get(id) {
      const inMemory = await fallback.get(id);
      try {
        return Math.max(inMemory, await stored(id));
      } catch (error) {
        console.warn('Reading the pin set high-water mark failed', error);
        return inMemory;
      }
    },
    async raise(id, version) {
      await fallback.raise(id, version);
      try {
        await raiseStored(id, version);
      } catch (error) {
        console.warn('Storing the pin set high-water mark failed', error);
      }
    },
  };
}
