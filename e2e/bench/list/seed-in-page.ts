// Plain JavaScript run in the benchmark's page (a string: tsx's helpers do not exist there). It
// seeds `count` files (numbered from `from`) through the API exactly as the app uploads them (issue 31): a file key
// RSA-wrapped to the owner, a manifest signed as 'encrypted', a node under the drive key with the
// sealed name and the signed node record; the content is one tiny coffer-v1 chunk. `CofferCrypto`
// is @coffer/crypto, bundled for the page; the drive and signing keys are the app's own unlocked
// (non-extractable) keys, read from its IndexedDB entry.
import { APP_KEYS_IN_PAGE } from './app-keys-in-page.js';

export const SEED_IN_PAGE = `async ({ from, count, concurrency, email }) => {
  const C = globalThis.CofferCrypto;
  const { entry, auth } = await (${APP_KEYS_IN_PAGE})();
  let next = from;
  let failures = 0;
  const refusals = [];
  const one = async (i) => {
    const fileKey = await C.generateFileKey();
    const info = C.buildOwnerEncryptionInfo(entry.keyVersion, await C.wrapFileKey(fileKey, entry.publicKey));
    const manifest = await C.signFileManifest({ ownerEmail: email, ownerKeyId: entry.keyVersion,
      ownerEncryptedFileKeyB64: info.encryptedFileKey, name: 'encrypted',
      contentType: 'application/octet-stream', size: 5 }, entry.signingPrivateKey);
    const nodeId = crypto.randomUUID();
    const place = { parentNodeId: 'drive', nodeId };
    const wrappedKey = await C.wrapNodeKey(fileKey, entry.driveKey, place);
    const name = 'bench-' + String(i).padStart(5, '0') + (i % 3 === 0 ? '.pdf' : i % 3 === 1 ? '.jpg' : '.txt');
    const encryptedMetadata = await C.sealMetadata(fileKey, nodeId, { name, contentType: 'text/plain' });
    const nodeRecord = await C.signNodeRecord({ ownerEmail: email, nodeId, parentNodeId: 'drive', kind: 'file',
      wrappedKeyB64: wrappedKey, encryptedMetadataB64: encryptedMetadata, manifestJson: manifest }, entry.signingPrivateKey);
    const chunk = await C.encryptChunk(fileKey, 0, true, crypto.getRandomValues(new Uint8Array(5)));
    const form = new FormData();
    form.append('name', 'encrypted');
    form.append('contentType', 'application/octet-stream');
    form.append('size', '5');
    form.append('isEncrypted', 'true');
    form.append('encryptionInfo', JSON.stringify(info));
    form.append('manifest', manifest);
    form.append('node', JSON.stringify({ nodeId, parentNodeId: null, wrappedKey, encryptedMetadata, nodeRecord }));
    form.append('file', new Blob([chunk]), 'encrypted');
    const response = await fetch('/api/users/uploads/direct', { method: 'POST', headers: auth(), body: form });
    if (!response.ok) {
      failures += 1;
      if (refusals.length < 3) refusals.push(response.status + ' ' + (await response.text()).slice(0, 200));
    }
  };
  const worker = async () => {
    while (next < from + count) await one(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { failures, refusals };
}`;
