// Plain JavaScript run in the benchmark's page (a string: tsx's helpers do not exist there). Times
// each step of opening the list on its own, with the page's bundled @coffer/crypto (`CofferCrypto`)
// and the app's own unlocked keys from its IndexedDB entry, so the breakdown does not depend on how
// the app overlaps them: every page of GET /users/files (fetch and JSON), every key unwrap, every
// metadata decrypt, every node record verify (each step with `concurrency` in flight).
import { APP_KEYS_IN_PAGE } from './app-keys-in-page.js';

export const PHASES_IN_PAGE = `async ({ email, concurrency }) => {
  const C = globalThis.CofferCrypto;
  const { entry, auth } = await (${APP_KEYS_IN_PAGE})();
  const pool = async (count, one) => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await one(next++);
    }));
  };
  const timings = {};
  let started = performance.now();
  const files = [];
  let cursor;
  let pages = 0;
  do {
    const query = '?limit=500' + (cursor === undefined ? '' : '&cursor=' + encodeURIComponent(cursor));
    const response = await fetch('/api/users/files' + query, { headers: auth() });
    const page = await response.json();
    files.push(...page.files);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  timings.fetchPagesMs = performance.now() - started;
  started = performance.now();
  const whole = await (await fetch('/api/users/files', { headers: auth() })).json();
  timings.fetchOneCallMs = performance.now() - started;
  const nodes = files.filter((file) => file.nodeId !== undefined);
  const keys = new Array(nodes.length);
  started = performance.now();
  await pool(nodes.length, async (i) => {
    const node = nodes[i];
    keys[i] = await C.unwrapNodeKey(node.wrappedKey, entry.driveKey,
      { parentNodeId: 'drive', nodeId: node.nodeId }, 'file');
  });
  timings.unwrapMs = performance.now() - started;
  started = performance.now();
  await pool(nodes.length, async (i) => {
    await C.openMetadata(keys[i], nodes[i].nodeId, nodes[i].encryptedMetadata);
  });
  timings.decryptMs = performance.now() - started;
  started = performance.now();
  let valid = 0;
  await pool(nodes.length, async (i) => {
    const node = nodes[i];
    const check = await C.verifyNodeRecord(node.nodeRecord, { ownerEmail: email, nodeId: node.nodeId,
      parentNodeId: 'drive', kind: 'file', wrappedKeyB64: node.wrappedKey,
      encryptedMetadataB64: node.encryptedMetadata }, entry.signingPublicKeyB64);
    if (check.status === 'valid' || (check.status === 'mismatch' && check.fields.join() === 'manifestSha256Hex')) valid += 1;
  });
  timings.verifyMs = performance.now() - started;
  return { ...timings, files: files.length, pages, wholeFiles: whole.files.length, valid };
}`;
