/**
 * Sources of the Blob-URL workers that run bare AES-GCM in the app's page (as the app's cipher runs
 * in workers). Plain JavaScript: the page runs them as they are, with no bundler in between.
 */

/**
 * `prepareChunk(length)`: a fresh key and IV, `length` random bytes (filled 64 KiB at a time, the
 * most `getRandomValues` fills at once) and their ciphertext. One IV for every call after it:
 * acceptable in a benchmark only.
 */
const PREPARE_CHUNK = `
const prepareChunk = async (length) => {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new Uint8Array(length);
  for (let at = 0; at < length; at += 65536) crypto.getRandomValues(plain.subarray(at, Math.min(length, at + 65536)));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain);
  return { key, iv, plain, sealed };
};
`;

/**
 * A worker that runs bare AES-GCM over the file's chunks: it prepares (random plaintext, its
 * ciphertext) when it gets `{ size, chunkSize, op }` and answers 'ready'; the next message runs
 * `op` over every chunk, one at a time, and it answers 'done'.
 */
export const BARE_WORKER_SOURCE = `${PREPARE_CHUNK}
onmessage = async (event) => {
  const { size, chunkSize, op } = event.data;
  const subtle = crypto.subtle;
  const { key, iv, plain: full, sealed: fullCt } = await prepareChunk(chunkSize);
  const count = Math.max(1, Math.ceil(size / chunkSize));
  const last = full.subarray(0, size - chunkSize * (count - 1));
  const lastCt = await subtle.encrypt({ name: 'AES-GCM', iv }, key, last);
  onmessage = async () => {
    for (let index = 0; index < count; index++) {
      const isLast = index === count - 1;
      const out = op === 'encrypt'
        ? await subtle.encrypt({ name: 'AES-GCM', iv }, key, isLast ? last : full)
        : await subtle.decrypt({ name: 'AES-GCM', iv }, key, isLast ? lastCt : fullCt);
      // Freed at once, as the app frees its chunks (else the collector decides the memory).
      out.transfer?.(0);
    }
    postMessage('done');
  };
  postMessage('ready');
};
`;

/**
 * A worker that holds one chunk's plaintext and ciphertext (prepared when it gets the chunk's
 * length). For 'encrypt' or 'decrypt' it runs that one AES-GCM call over the whole chunk and
 * answers 'done', keeping the output; for 'free' it frees the output and answers 'freed'. A
 * failure answers 'failed: <why>'.
 */
export const FOOTPRINT_WORKER_SOURCE = `${PREPARE_CHUNK}
let key, iv, plain, sealed, out;
onmessage = async (event) => {
  try {
    const subtle = crypto.subtle;
    if (typeof event.data === 'number') {
      ({ key, iv, plain, sealed } = await prepareChunk(event.data));
      postMessage('ready');
    } else if (event.data === 'free') {
      out?.transfer?.(0);
      out = undefined;
      postMessage('freed');
    } else {
      out = event.data === 'encrypt'
        ? await subtle.encrypt({ name: 'AES-GCM', iv }, key, plain)
        : await subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
      postMessage('done');
    }
  } catch (error) {
    postMessage('failed: ' + String(error));
  }
};
`;
