/** The parts of autocannon (no types of its own) the load benchmark uses. */
declare module 'autocannon' {
  interface Request {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    /** Called before each send; `context` is the connection's own, kept across its requests. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }
  interface Options {
    url: string;
    connections: number;
    duration: number;
    requests?: Request[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    /** Answers by HTTP status code. */
    statusCodeStats?: Record<string, { count: number }>;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
