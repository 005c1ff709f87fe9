import type { FileListItem, Folder } from '@coffer/contracts';
import {
  createDriveKey,
  createFolderKey,
  DRIVE_NODE_ID,
  exportSigningPublicKeyB64,
  generateFileKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  sealMetadata,
  signNodeRecord,
  verifyNodeRecord,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fileNodeFor } from './file-node';
import { loadDrive, loadDrivePages, withCheckedRecords } from './drive-load';
import { createRecordChecker } from './drive-records';
import { openDrive } from './drive-open';
import { buildDriveTree } from './drive-tree';
import { UNREADABLE_FILE_NAME } from './drive-nodes';
import type { ApiClient } from '../api/http';
import type * as Crypto from '@coffer/crypto';

// verifyNodeRecord as it is, counted (the record checker must check each node once).
vi.mock('@coffer/crypto', async (importOriginal) => {
  const original = await importOriginal<typeof Crypto>();
  return { ...original, verifyNodeRecord: vi.fn(original.verifyNodeRecord) };
});

const EMAIL = 'alice@example.com';
let driveKey: CryptoKey;
let signing: CryptoKeyPair;
let signingPublicKeyB64: string;

beforeAll(async () => {
  const pair = await generateUserKeyPair();
  driveKey = (await createDriveKey([pair.publicKey])).driveKey;
  signing = await generateSigningKeyPair();
  signingPublicKeyB64 = await exportSigningPublicKeyB64(signing.publicKey);
});

let counter = 0;
/** A listed file with a node under `parent` (the drive key at the top). */
async function encryptedFile(
  name: string,
  parent: { nodeId: string | null; key: CryptoKey } = { nodeId: null, key: driveKey },
): Promise<FileListItem> {
  const node = await fileNodeFor({
    fileKey: await generateFileKey(),
    name,
    contentType: 'text/plain',
    parent,
    ownerEmail: EMAIL,
    signingPrivateKey: signing.privateKey,
  });
  counter += 1;
  return {
    fileId: `file-${counter}`,
    name: 'encrypted',
    contentType: 'application/octet-stream',
    isEncrypted: true,
    size: 10,
    uploadedAt: '2026-11-27T05:00:00.000Z',
    ownerId: 'user-1',
    ...node,
  };
}

function clearFile(name: string): FileListItem {
  counter += 1;
  return {
    fileId: `file-${counter}`,
    name,
    contentType: 'text/plain',
    isEncrypted: true,
    size: 10,
    uploadedAt: '2026-11-27T05:00:00.000Z',
    ownerId: 'user-1',
  };
}

async function folder(name: string, parentNodeId: string | null, parentKey: CryptoKey) {
  const nodeId = crypto.randomUUID();
  const place = { parentNodeId: parentNodeId ?? DRIVE_NODE_ID, nodeId };
  const { folderKey, wrappedKeyB64 } = await createFolderKey(parentKey, place);
  const encryptedMetadata = await sealMetadata(folderKey, nodeId, { name });
  const nodeRecord = await signNodeRecord(
    {
      ownerEmail: EMAIL,
      nodeId,
      parentNodeId: place.parentNodeId,
      kind: 'folder',
      wrappedKeyB64,
      encryptedMetadataB64: encryptedMetadata,
    },
    signing.privateKey,
  );
  const item: Folder = {
    nodeId,
    parentNodeId,
    wrappedKey: wrappedKeyB64,
    encryptedMetadata,
    nodeRecord,
    createdAt: '2026-11-27T05:00:00.000Z',
    updatedAt: '2026-11-27T05:00:00.000Z',
  };
  return { item, folderKey };
}

async function openedTree(files: FileListItem[], folders: Folder[] = []) {
  const opened = await openDrive(files, folders, driveKey);
  return withCheckedRecords(buildDriveTree(opened.files, opened.folders), EMAIL, signingPublicKeyB64);
}

describe('lib/drive: opening my drive', () => {
  it('decrypts names under the drive key and folder keys, and searches every folder', async () => {
    const photos = await folder('Photos', null, driveKey);
    const inside = await encryptedFile('zz-marker-beach.jpg', {
      nodeId: photos.item.nodeId,
      key: photos.folderKey,
    });
    const top = await encryptedFile('report.pdf');
    const tree = await openedTree([inside, top], [photos.item]);
    expect(tree.byParent.get(null)?.files.map((file) => file.name)).toEqual(['report.pdf']);
    expect(tree.byParent.get(null)?.folders.map((f) => f.name)).toEqual(['Photos']);
    expect(tree.byParent.get(photos.item.nodeId)?.files.map((file) => file.name)).toEqual([
      'zz-marker-beach.jpg',
    ]);
    expect(tree.search('MARKER').files.map((file) => file.fileId)).toEqual([inside.fileId]);
    expect(tree.search('phot').folders).toHaveLength(1);
    expect(tree.records.get(inside.fileId)).toBe('valid');
    expect(tree.records.get(photos.item.nodeId)).toBe('valid');
    const opened = tree.files.find((file) => file.fileId === top.fileId);
    expect(opened?.state).toBe('open');
    expect(opened?.contentType).toBe('text/plain');
  });

  it('shows old files with their clear name (sanitized) and no record', async () => {
    const old = clearFile('evil\u202Efdp.exe');
    const tree = await openedTree([old]);
    expect(tree.files[0]?.state).toBe('clear');
    expect(tree.files[0]?.name).toBe('evilfdp.exe');
    expect(tree.records.get(old.fileId)).toBe('none');
  });

  it('sanitizes decrypted names (separators, controls, bidi)', async () => {
    const nasty = await encryptedFile('../../etc/pass\u0000wd\u202E.txt');
    const tree = await openedTree([nasty]);
    expect(tree.files[0]?.name).toBe('_.._etc_pass_wd.txt');
  });

  it('a file moved by the server under another parent is unreadable, not a crash', async () => {
    const photos = await folder('Photos', null, driveKey);
    const file = await encryptedFile('a.txt');
    const moved = { ...file, parentNodeId: photos.item.nodeId };
    const tree = await openedTree([moved], [photos.item]);
    expect(tree.files[0]?.state).toBe('unreadable');
    expect(tree.files[0]?.name).toBe(UNREADABLE_FILE_NAME);
    expect(tree.records.get(file.fileId)).toBe('tampered');
  });

  it('metadata swapped between two files fails to open; the others still open', async () => {
    const a = await encryptedFile('a.txt');
    const b = await encryptedFile('b.txt');
    const c = await encryptedFile('c.txt');
    const swappedA = { ...a, encryptedMetadata: b.encryptedMetadata };
    const tree = await openedTree([swappedA, b, c]);
    expect(tree.files.map((file) => file.state)).toEqual(['unreadable', 'open', 'open']);
    expect(tree.files[0]?.problem).toMatch(/metadata/);
    expect(tree.records.get(a.fileId)).toBe('tampered');
    expect(tree.records.get(b.fileId)).toBe('valid');
  });

  it('flags a node record mismatch (a record of another node, an unsigned node, a foreign signer)', async () => {
    const a = await encryptedFile('a.txt');
    const b = await encryptedFile('b.txt');
    const c = await encryptedFile('c.txt');
    const unsigned: FileListItem = { ...c };
    delete unsigned.nodeRecord;
    const other = await generateSigningKeyPair();
    const d = await encryptedFile('d.txt');
    const forged = {
      ...d,
      nodeRecord: await signNodeRecord(
        {
          ownerEmail: EMAIL,
          nodeId: d.nodeId ?? '',
          parentNodeId: DRIVE_NODE_ID,
          kind: 'file',
          wrappedKeyB64: d.wrappedKey ?? '',
          encryptedMetadataB64: d.encryptedMetadata ?? '',
        },
        other.privateKey,
      ),
    };
    const tree = await openedTree([{ ...a, nodeRecord: b.nodeRecord }, b, unsigned, forged]);
    expect(tree.records.get(a.fileId)).toBe('tampered');
    expect(tree.records.get(b.fileId)).toBe('valid');
    expect(tree.records.get(c.fileId)).toBe('tampered');
    expect(tree.records.get(d.fileId)).toBe('tampered');
    // The names still open (the key and metadata are genuine): the record verdict is what flags them.
    expect(tree.files.every((file) => file.state === 'open')).toBe(true);
  });

  it('without a drive key, encrypted files are unreadable and clear ones still show', async () => {
    const a = await encryptedFile('a.txt');
    const old = clearFile('old.txt');
    const opened = await openDrive([a, old], [], undefined);
    expect(opened.files.map((file) => file.state)).toEqual(['unreadable', 'clear']);
  });

  it('loadDrive lists files and folders, and an API without folders (404) lists none', async () => {
    const a = await encryptedFile('listed.txt');
    const api = {
      request: (method: string, path: string) => {
        if (path.startsWith('/users/files')) return Promise.resolve({ files: [a] });
        return Promise.reject(Object.assign(new Error('not found'), { status: 404 }));
      },
    } as unknown as ApiClient;
    const tree = await loadDrive(api, { driveKey });
    expect(tree.files.map((file) => file.name)).toEqual(['listed.txt']);
    expect(tree.folders).toEqual([]);
  });
});

/** An API whose GET /users/files answers `pages` by cursor, logging every call in `calls`. */
function pagedApi(pages: FileListItem[][], folders: Folder[] = []) {
  const calls: string[] = [];
  const api = {
    request: (_method: string, path: string) => {
      calls.push(path);
      if (path.startsWith('/users/folders')) return Promise.resolve({ folders });
      const index = Number(/cursor=p(\d+)/.exec(path)?.[1] ?? 0);
      const next = index + 1 < pages.length ? { nextCursor: `p${index + 1}` } : {};
      return Promise.resolve({ files: pages[index] ?? [], ...next });
    },
  } as unknown as ApiClient;
  return { api, calls };
}

describe('lib/drive: a page at a time (10,000 files)', () => {
  it('yields each page opened, in order, with files in folders opened under their folder key', async () => {
    const photos = await folder('Photos', null, driveKey);
    const first = [
      await encryptedFile('newest.txt'),
      await encryptedFile('in-photos.jpg', {
        nodeId: photos.item.nodeId,
        key: photos.folderKey,
      }),
    ];
    const second = [await encryptedFile('older.txt'), clearFile('oldest.txt')];
    const { api } = pagedApi([first, second], [photos.item]);
    const names: string[][] = [];
    for await (const page of loadDrivePages(api, { driveKey })) names.push(page.map((file) => file.name));
    expect(names).toEqual([
      ['newest.txt', 'in-photos.jpg'],
      ['older.txt', 'oldest.txt'],
    ]);
  });

  it('has the next page asked for while the first one is shown', async () => {
    const pages = [
      [await encryptedFile('a.txt')],
      [await encryptedFile('b.txt')],
      [await encryptedFile('c.txt')],
    ];
    const { api, calls } = pagedApi(pages);
    const drive = loadDrivePages(api, { driveKey });
    const first = await drive.next();
    expect(first.done).toBe(false);
    // The first page is in the caller's hands, and the second is already on its way.
    expect(calls.filter((path) => path.startsWith('/users/files'))).toHaveLength(2);
    expect(calls.some((path) => path.startsWith('/users/folders'))).toBe(true);
    const rest: string[] = [];
    for await (const page of drive) rest.push(...page.map((file) => file.name));
    expect(rest).toEqual(['b.txt', 'c.txt']);
  });

  it('without a drive key, every page still lists its files, unreadable', async () => {
    const { api } = pagedApi([[await encryptedFile('a.txt')], [clearFile('old.txt')]]);
    const states: string[] = [];
    for await (const page of loadDrivePages(api, {})) states.push(...page.map((file) => file.state));
    expect(states).toEqual(['unreadable', 'clear']);
  });
});

describe('lib/drive: the record checker of a growing list', () => {
  it('checks each node once as the list grows, and a new answer again', async () => {
    const a = await encryptedFile('a.txt');
    const b = await encryptedFile('b.txt');
    const c = await encryptedFile('c.txt');
    const swapped = { ...c, encryptedMetadata: a.encryptedMetadata };
    const opened = await openDrive([a, b, swapped], [], driveKey);
    const checker = createRecordChecker(EMAIL, signingPublicKeyB64);
    const verify = vi.mocked(verifyNodeRecord);
    verify.mockClear();
    // The first page's check ends last: the answer still lists the nodes in the list's order.
    const through = verify.getMockImplementation();
    if (through === undefined) throw new Error('verifyNodeRecord is not wrapped');
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    verify.mockImplementationOnce(async (...args) => {
      await gate;
      return through(...args);
    });
    // Page one, then pages one and two while the first check still runs, then the whole list again.
    const early = checker.check(opened.files.slice(0, 1));
    const growing = checker.check(opened.files);
    await vi.waitFor(() => {
      expect(verify).toHaveBeenCalledTimes(3);
    });
    await Promise.allSettled(verify.mock.results.slice(1).map((result) => result.value as Promise<unknown>));
    release();
    const grown = await growing;
    await early;
    const again = await checker.check(opened.files);
    expect(verify).toHaveBeenCalledTimes(3);
    expect([...grown]).toEqual([
      [a.fileId, 'valid'],
      [b.fileId, 'valid'],
      [c.fileId, 'tampered'],
    ]);
    expect(again).toEqual(grown);
    // A refetch brings new answers: their records are checked again.
    const refetched = await openDrive([{ ...a }], [], driveKey);
    expect((await checker.check(refetched.files)).get(a.fileId)).toBe('valid');
    expect(verify).toHaveBeenCalledTimes(4);
  });
});
