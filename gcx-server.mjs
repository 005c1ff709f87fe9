// scratch experiment (not committed)
import Fastify from 'fastify';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { PerformanceObserver } from 'node:perf_hooks';
const path = '/tmp/gcx/blob.bin';
const size = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
let gcs = { major: 0, minor: 0, majorMs: 0, minorMs: 0 };
new PerformanceObserver((l) => { for (const e of l.getEntries()) { const k = e.detail.kind === 1 ? 'minor' : 'major'; gcs[k]++; gcs[k + 'Ms'] += e.duration; } }).observe({ entryTypes: ['gc'] });
async function* readRange() {
  const h = await open(path, 'r');
  const s = h.createReadStream({ start: 0, end: size - 1, highWaterMark: MiB });
  try { for await (const c of s) yield c; } finally { s.destroy(); }
}
const app = Fastify();
app.get('/a', (req, reply) => { reply.header('content-length', String(size)); return reply.send(Readable.from(readRange(), { objectMode: false, highWaterMark: 64 * 1024 })); });
app.get('/b', async (req, reply) => { const h = await open(path, 'r'); reply.header('content-length', String(size)); return reply.send(h.createReadStream({ start: 0, end: size - 1, highWaterMark: MiB })); });
app.get('/d', async (req, reply) => {
  const h = await open(path, 'r');
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-length': String(size) });
  const ring = Array.from({ length: 4 }, () => Buffer.allocUnsafeSlow(MiB));
  const pending = [];
  let pos = 0, i = 0;
  try {
    while (pos < size) {
      if (pending.length === ring.length) await pending.shift();
      const buf = ring[i++ % ring.length];
      const { bytesRead } = await h.read(buf, 0, Math.min(MiB, size - pos), pos);
      pos += bytesRead;
      pending.push(new Promise((resolve, reject) => res.write(buf.subarray(0, bytesRead), (e) => (e ? reject(e) : resolve()))));
    }
    await Promise.all(pending);
    res.end();
  } finally { await h.close(); }
});
app.get('/stats', async () => { const c = process.cpuUsage(); const r = { cpu: (c.user + c.system) / 1e6, ...gcs }; gcs = { major: 0, minor: 0, majorMs: 0, minorMs: 0 }; return r; });
await app.listen({ port: 9911, host: '127.0.0.1' });
console.log('ready');
