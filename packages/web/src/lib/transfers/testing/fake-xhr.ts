/** The request a FakeXhr hands to its server, with the body read. */
export interface FakeXhrRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Octet bodies as bytes; form bodies as ordered entries. */
  readonly bytes: Uint8Array | null;
  readonly form: readonly (readonly [string, FormDataEntryValue])[] | null;
}

export type FakeXhrAnswer =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly statusText?: string;
      readonly body?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'network-error' };

export type FakeXhrHandler = (request: FakeXhrRequest) => Promise<FakeXhrAnswer>;

/**
 * Just enough of XMLHttpRequest for the upload transport: headers, upload progress events in a
 * few steps (each in its own task), load / error / abort. The answer comes from `handler`.
 */
export class FakeXhr extends EventTarget {
  readonly upload = new EventTarget();
  status = 0;
  statusText = '';
  responseText = '';
  #method = '';
  #url = '';
  #headers: Record<string, string> = {};
  #responseHeaders: Record<string, string> = {};
  #aborted = false;
  #done = false;

  constructor(
    private readonly handler: FakeXhrHandler,
    private readonly progressSteps = 4,
  ) {
    super();
  }

  open(method: string, url: string): void {
    this.#method = method;
    this.#url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.#headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    const key = Object.keys(this.#responseHeaders).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? null : (this.#responseHeaders[key] ?? null);
  }

  send(body: Blob | FormData): void {
    void this.#run(body);
  }

  abort(): void {
    if (this.#done) return;
    this.#aborted = true;
    this.#done = true;
    this.dispatchEvent(new Event('abort'));
  }

  async #run(body: Blob | FormData): Promise<void> {
    const bytes = body instanceof Blob ? new Uint8Array(await body.arrayBuffer()) : null;
    const form = body instanceof FormData ? [...body.entries()] : null;
    const total =
      bytes?.length ??
      form?.reduce((sum, [, v]) => sum + (typeof v === 'string' ? v.length : v.size), 0) ??
      0;
    for (let step = 1; step <= this.progressSteps; step++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.#aborted) return;
      const loaded = Math.round((total * step) / this.progressSteps);
      this.upload.dispatchEvent(
        Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }),
      );
    }
    const answer = await this.handler({
      method: this.#method,
      url: this.#url,
      headers: { ...this.#headers },
      bytes,
      form,
    });
    if (this.#aborted) return;
    this.#done = true;
    if (answer.kind === 'network-error') {
      this.dispatchEvent(new Event('error'));
      return;
    }
    this.status = answer.status;
    this.statusText = answer.statusText ?? '';
    this.responseText = answer.body ?? '';
    this.#responseHeaders = { ...answer.headers };
    this.dispatchEvent(new Event('load'));
  }
}
