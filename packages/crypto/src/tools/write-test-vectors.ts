// A Node-only tool (run after `tsc -b`): `npm run vectors -w @coffer/crypto`. Regenerate only when
// adding vectors; the content vectors must never change for coffer-v1.
// eslint-disable-next-line no-restricted-imports -- writes files, never part of the browser bundle
import { readFile, writeFile } from 'node:fs/promises';
import {
  buildContentVectors,
  buildKeyVectors,
  buildSignatureVectors,
  type KeyVectors,
  type SignatureVectors,
} from './test-vectors.build.js';
import { buildArgon2idVectors } from './argon2id-vectors.build.js';

const directory = new URL('../../test-vectors/', import.meta.url);
const write = async (name: string, value: unknown): Promise<void> => {
  await writeFile(new URL(name, directory), `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote test-vectors/${name}`);
};

await write('content-v1.json', await buildContentVectors());
// Keeps the checked-in RSA key pair when there is one (delete the file to draw a new one).
const existingKeys = await readFile(new URL('keys-v1.json', directory), 'utf8').then(
  (text) => JSON.parse(text) as KeyVectors,
  () => undefined,
);
const keys = await buildKeyVectors(existingKeys);
await write('keys-v1.json', keys);
const existingSignatures = await readFile(new URL('signatures-v1.json', directory), 'utf8').then(
  (text) => JSON.parse(text) as SignatureVectors,
  () => undefined,
);
const signatures = await buildSignatureVectors(keys, existingSignatures);
await write('signatures-v1.json', signatures);
await write('argon2id-v1.json', await buildArgon2idVectors(keys, signatures));
