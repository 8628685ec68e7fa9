/**
 * One invocation of a function's handler as that function (its AWS requests go to the IAM check as its), with
 * every line it wrote to stdout and stderr: for the tests that read what a function logs (the authorizers' and
 * the SSO triggers' failures, which their log groups' metric filters count).
 */
import net from "node:net";
import { vi } from "vitest";
import { asFunction } from "../../infra/local/function-scope.js";

// biome-ignore lint/suspicious/noExplicitAny: log lines are navigated without declaring each shape.
export type LogLine = any;

/** What `run(event)` threw, if it did, and every line written meanwhile, parsed (the functions log JSON). */
export async function invokeCapturing<E>(
  handler: string,
  run: (event: E) => Promise<unknown>,
  event: E,
): Promise<{ thrown: Error | undefined; docs: LogLine[] }> {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  };
  const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
  try {
    const thrown = await asFunction(handler, () => run(event)).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    return { thrown, docs: lines.map((l) => JSON.parse(l) as LogLine) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The lines at ERROR: what the log groups' metric filters count. */
export const errorLines = (docs: LogLine[]): LogLine[] => docs.filter((d) => d.level === "ERROR");

/** A port that refuses connections (one the system gave a listener, then closed): DynamoDB unreachable, for real. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
