// The parts of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total?: number;
  }
  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (
      request: { path: string; method?: string; body?: string; headers?: Record<string, string> },
      context: Record<string, unknown>,
    ) => { path: string; method?: string; body?: string; headers?: Record<string, string> };
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    /** Sampling interval in ms (default 1000); a run ends on a sample tick. */
    sampleInt?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
    title?: string;
  }
  interface Result {
    title?: string;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    /** Answers by status code. */
    statusCodeStats?: Record<string, { count: number }>;
    /** Elapsed seconds (two decimals). */
    duration: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
