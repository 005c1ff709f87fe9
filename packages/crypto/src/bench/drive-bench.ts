// The owner's list of 10,000 files, in Node: the time to open every file's key and metadata under
// one folder key (openNodesMetadata), for several in-flight limits, against what an RSA-OAEP
// unwrap per file would cost (measured on a sample, scaled). Run after `npx tsc -b packages/crypto`:
// `node packages/crypto/dist/bench/drive-bench.js [--nodes=10000] [--repeats=5]`.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDriveKey, unwrapDriveKey } from '../drive/drive-key.wrap.js';
import { createFolderKey, wrapNodeKey } from '../drive/node-key.wrap.js';
import { sealMetadata } from '../drive/node-metadata.seal.js';
import { openNodesMetadata, type ListedNode } from '../drive/nodes-metadata.batch.js';
import { generateFileKey, unwrapFileKey, wrapFileKey } from '../file-key.wrap.js';
import { generateUserKeyPair } from '../key-pair.rsa.js';

const option = (name: string, fallback: number): number => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : Number(arg.slice(name.length + 3));
};
const NODES = option('nodes', 10_000);
const REPEATS = option('repeats', 5);
const RSA_SAMPLE = 200;
const FOLDER = 'a0000000-0000-4000-8000-000000000001';

const nodeId = (i: number): string => `f0000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (value: number): string => `${value.toFixed(0)} ms`;

async function main(): Promise<void> {
  const { publicKey, privateKey } = await generateUserKeyPair();
  const { wrappedDriveKeysB64 } = await createDriveKey([publicKey]);
  const driveKey = await unwrapDriveKey(wrappedDriveKeysB64[0] ?? '', privateKey);
  const { folderKey } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: FOLDER });

  process.stdout.write(`Preparing ${NODES} files… `);
  const nodes: ListedNode[] = [];
  const rsaCopies: string[] = [];
  for (let i = 0; i < NODES; i++) {
    const fileKey = await generateFileKey();
    const id = nodeId(i + 1);
    nodes.push({
      nodeId: id,
      parentNodeId: FOLDER,
      kind: 'file',
      wrappedKeyB64: await wrapNodeKey(fileKey, folderKey, { parentNodeId: FOLDER, nodeId: id }),
      encryptedMetadataB64: await sealMetadata(fileKey, id, {
        name: `Scan ${String(i).padStart(5, '0')} – quarterly report, final version.pdf`,
        contentType: 'application/pdf',
      }),
    });
    if (i < RSA_SAMPLE) rsaCopies.push(await wrapFileKey(fileKey, publicKey));
  }
  process.stdout.write('done.\n');

  const unlock = performance.now();
  await unwrapDriveKey(wrappedDriveKeysB64[0] ?? '', privateKey);
  const driveUnwrap = performance.now() - unlock;

  const rows: string[] = [];
  for (const concurrency of [1, 16, 64, 256]) {
    const times: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const start = performance.now();
      const opened = await openNodesMetadata(folderKey, nodes, concurrency);
      times.push(performance.now() - start);
      if (opened.some((node) => !node.ok)) throw new Error('a node did not open');
    }
    rows.push(
      `| openNodesMetadata, ${concurrency} in flight | ${ms(median(times))} | ${ms(Math.min(...times))} |`,
    );
  }

  const rsaStart = performance.now();
  await Promise.all(rsaCopies.map((copy) => unwrapFileKey(copy, privateKey)));
  const rsaPerFile = (performance.now() - rsaStart) / RSA_SAMPLE;

  console.log(
    `\nNode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${new Date().toISOString().slice(0, 10)}`,
  );
  // Node's WebCrypto costs far more per small call than Chromium's: these are an upper bound for
  // the browser. On a shared machine, the load says how far to trust them.
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log(`${NODES} files under one folder, median and best of ${REPEATS} runs:\n`);
  console.log('| step | median | best |');
  console.log('| --- | --- | --- |');
  console.log(`| drive key: one RSA-OAEP unwrap (once per unlock) | ${ms(driveUnwrap)} | |`);
  for (const row of rows) console.log(row);
  console.log(
    `| for comparison: an RSA-OAEP unwrap per file (${RSA_SAMPLE} measured, scaled to ${NODES}) | ${ms(rsaPerFile * NODES)} | |`,
  );
}

await main();
