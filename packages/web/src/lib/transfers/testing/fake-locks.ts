/** Web Locks, exclusive, in memory: enough for `request` (with `ifAvailable`) and `query`. Tests only. */
export class FakeLocks {
  readonly held = new Set<string>();

  request(
    name: string,
    optionsOrCallback: { ifAvailable?: boolean } | ((lock: { name: string } | null) => Promise<unknown>),
    maybeCallback?: (lock: { name: string } | null) => Promise<unknown>,
  ): Promise<unknown> {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
    const ifAvailable = typeof optionsOrCallback === 'object' && optionsOrCallback.ifAvailable === true;
    if (callback === undefined) return Promise.reject(new TypeError('no callback'));
    if (this.held.has(name)) {
      if (ifAvailable) return callback(null);
      return Promise.reject(new Error('the fake does not queue'));
    }
    this.held.add(name);
    return callback({ name }).finally(() => this.held.delete(name));
  }

  query(): Promise<{ held: { name: string }[] }> {
    return Promise.resolve({ held: [...this.held].map((name) => ({ name })) });
  }

  /** Holds `name` for good, as a live worker holds its own. */
  holdForever(name: string): void {
    void this.request(name, () => new Promise(() => undefined));
  }
}
