import { describe, expect, it, vi } from 'vitest';
import { createOperationRegistry, type OperationSource } from './operations';

describe('operation registry', () => {
  it('tracks registered operations until they settle', () => {
    const registry = createOperationRegistry();
    const listener = vi.fn();
    registry.subscribe(listener);
    const doneUpload = registry.register({ kind: 'upload', abort: vi.fn() });
    const doneDownload = registry.register({ kind: 'download', abort: vi.fn() });
    expect(registry.count()).toBe(2);
    expect(registry.count('upload')).toBe(1);
    expect(registry.hasActive()).toBe(true);
    doneUpload();
    doneUpload();
    doneDownload();
    expect(registry.hasActive()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('aborts every operation, or those of one kind, even when one abort fails', async () => {
    const onError = vi.fn();
    const registry = createOperationRegistry({ onError });
    const upload = vi.fn(() => Promise.reject(new Error('multipart abort failed')));
    const download = vi.fn();
    registry.register({ kind: 'upload', abort: upload });
    registry.register({ kind: 'download', abort: download });

    await expect(registry.abortAll('download')).resolves.toBe(1);
    expect(download).toHaveBeenCalledOnce();
    expect(upload).not.toHaveBeenCalled();

    await expect(registry.abortAll()).resolves.toBe(1);
    expect(upload).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledOnce();
    expect(registry.hasActive()).toBe(false);
  });

  it('includes sources (the transfer manager) in activity, logout and navigation aborts', async () => {
    let busy = true;
    let notify = (): void => undefined;
    const source: OperationSource = {
      hasActive: () => busy,
      abortAll: vi.fn(() => {
        busy = false;
        return Promise.resolve();
      }),
      abortForNavigation: vi.fn(() => Promise.resolve()),
      subscribe: (listener) => {
        notify = listener;
        return () => undefined;
      },
    };
    const registry = createOperationRegistry({ sleep: () => Promise.resolve() });
    const listener = vi.fn();
    registry.subscribe(listener);
    const remove = registry.addSource(source);
    expect(registry.hasActive()).toBe(true);
    notify();
    expect(listener).toHaveBeenCalledTimes(2);

    await registry.abortForNavigation();
    expect(source.abortForNavigation).toHaveBeenCalledOnce();
    await registry.abortAll('upload');
    expect(source.abortAll).not.toHaveBeenCalled();
    await registry.abortAll();
    expect(source.abortAll).toHaveBeenCalledOnce();
    expect(registry.hasActive()).toBe(false);
    remove();
  });

  it('aborts uploads, waits 200 ms, aborts the rest, waits 300 ms before leaving a route', async () => {
    const steps: string[] = [];
    const registry = createOperationRegistry({
      sleep: (ms) => {
        steps.push(`wait ${ms}`);
        return Promise.resolve();
      },
    });
    registry.register({ kind: 'download', abort: () => void steps.push('abort download') });
    registry.register({ kind: 'upload', abort: () => void steps.push('abort upload') });
    await registry.abortForNavigation();
    expect(steps).toEqual(['abort upload', 'wait 200', 'abort download', 'wait 300']);
  });
});
