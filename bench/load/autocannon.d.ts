/** The part of autocannon 8's API the load run uses (the package ships no types). */
declare module "autocannon" {
  export interface Histogram {
    readonly average: number;
    readonly mean: number;
    readonly stddev: number;
    readonly min: number;
    readonly max: number;
    readonly total: number;
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly p99_9: number;
  }

  export interface Result {
    readonly requests: Histogram;
    readonly latency: Histogram;
    readonly throughput: Histogram;
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly statusCodeStats: Record<string, { count: number }>;
    readonly connections: number;
  }

  export interface RawRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
  }

  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    // biome-ignore lint/suspicious/noExplicitAny: the context is whatever the requests put in it.
    setupRequest?: (req: RawRequest, context: Record<string, any>) => RawRequest | undefined;
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    onResponse?: (status: number, body: string, context: Record<string, any>, headers: Record<string, string>) => void;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    pipelining?: number;
    requests?: RequestSpec[];
  }

  export interface Instance extends PromiseLike<Result> {
    on(event: "reqError", listener: (err: Error) => void): this;
    stop(): void;
  }

  function autocannon(opts: Options): Instance;
  export default autocannon;
}
