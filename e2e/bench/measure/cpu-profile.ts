import type { CDPSession } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * With --profile: runs `transfer` under the page's CPU profiler (main thread only; the crypto
 * worker is another target) and prints the functions with the most self time.
 */
export async function profiled<T>(
  h: { profile: boolean; cdp: CDPSession },
  label: string,
  transfer: () => Promise<T>,
): Promise<T> {
  if (!h.profile) return transfer();
  await h.cdp.send('Profiler.enable');
  await h.cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await h.cdp.send('Profiler.start');
  try {
    return await transfer();
  } finally {
    const { profile } = (await h.cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    };
    const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
    const selfMs = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const frame = byNode.get(id)?.callFrame;
      if (frame === undefined) return;
      const file = frame.url.split('/').pop() ?? '';
      const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
      selfMs.set(name, (selfMs.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const top = [...selfMs.entries()]
      .filter(([name]) => !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15);
    console.log(`  main-thread self time, ${label} (ms):`);
    for (const [name, ms] of top) console.log(`    ${ms.toFixed(0).padStart(6)}  ${name}`);
  }
}
