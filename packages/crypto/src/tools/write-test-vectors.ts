// A Node-only tool (run after `tsc -b`): `npm run vectors -w @coffer/crypto`. Regenerate only when
// adding vectors; the content vectors must never change for coffer-v1.
// eslint-disable-next-line no-restricted-imports -- writes files, never part of the browser bundle
import { writeFile } from 'node:fs/promises';
import { buildContentVectors, buildKeyVectors } from './test-vectors.build.js';

const directory = new URL('../../test-vectors/', import.meta.url);
const write = async (name: string, value: unknown): Promise<void> => {
  await writeFile(new URL(name, directory), `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote test-vectors/${name}`);
};

await write('content-v1.json', await buildContentVectors());
await write('keys-v1.json', await buildKeyVectors());
