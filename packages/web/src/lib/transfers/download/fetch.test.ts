import { describe, expect, it } from 'vitest';
import type { DownloadJob } from './download-run';
import { openDownloadStream } from './fetch';

describe('a link download resumed with its token (issue 30)', () => {
  it("sends back the first answer's token on a Range request, and nothing on the first", async () => {
    const sent: Record<string, string>[] = [];
    const fetchImpl = ((_input: string, init?: RequestInit) => {
      sent.push({ ...(init?.headers as Record<string, string>) });
      const headers: Record<string, string> =
        sent.length === 1 ? { 'x-link-download': 'tok-1' } : { 'Content-Range': 'bytes 5-9/10' };
      return Promise.resolve(new Response('hello', { status: sent.length === 1 ? 200 : 206, headers }));
    }) as typeof fetch;
    const job: Pick<DownloadJob, 'downloadPath' | 'resumeTokenHeader'> = {
      downloadPath: '/public/links/x/files/y/download',
      resumeTokenHeader: 'x-link-download',
    };
    const signal = new AbortController().signal;
    await openDownloadStream(fetchImpl, job, { 'X-Link-Auth': 'a' }, 0, signal);
    const resumed = await openDownloadStream(fetchImpl, job, { 'X-Link-Auth': 'a' }, 5, signal);
    // A window (ResumableReader's `windows`) asks for its bytes only, with the same token.
    await openDownloadStream(fetchImpl, job, { 'X-Link-Auth': 'a' }, 5, signal, 9);
    expect(sent[0]).toEqual({ 'X-Link-Auth': 'a' });
    expect(sent[1]).toEqual({ 'X-Link-Auth': 'a', Range: 'bytes=5-', 'x-link-download': 'tok-1' });
    expect(sent[2]).toEqual({ 'X-Link-Auth': 'a', Range: 'bytes=5-9', 'x-link-download': 'tok-1' });
    expect(resumed.offset).toBe(5);
  });

  it('sends no token for a job without the header (signed-in downloads)', async () => {
    const sent: Record<string, string>[] = [];
    const fetchImpl = ((_input: string, init?: RequestInit) => {
      sent.push({ ...(init?.headers as Record<string, string>) });
      return Promise.resolve(new Response('hello', { headers: { 'x-link-download': 'tok-1' } }));
    }) as typeof fetch;
    const job = { downloadPath: '/users/files/y/download' };
    const signal = new AbortController().signal;
    await openDownloadStream(fetchImpl, job, {}, 0, signal);
    await openDownloadStream(fetchImpl, job, {}, 5, signal);
    expect(sent[1]).toEqual({ Range: 'bytes=5-' });
  });
});
