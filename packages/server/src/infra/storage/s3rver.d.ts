/** The parts of s3rver (a test double for S3, no types of its own) that the tests use. */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Uint8Array)[] }[];
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** Resolves with the bound address once listening. */
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }

  export = S3rver;
}
