/**
 * Counts the AWS requests a piece of domain code makes, by command name, with a middleware on the SDK
 * clients: the request budgets of the contract are asserted with it.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SESClient } from "@aws-sdk/client-ses";
import { afterAll, beforeAll } from "vitest";

type Client = DynamoDBClient | SESClient;

/** Installs the counter on `clients` for the current file; `counted(fn)` runs fn and returns the commands it sent. */
export function requestCounter(...clients: Client[]) {
  const commands: string[] = [];
  const name = `count-requests-${Math.random().toString(36).slice(2)}`;
  beforeAll(() => {
    for (const client of clients) {
      // One middleware for either client: the counting needs only the command name.
      (client as DynamoDBClient).middlewareStack.add(
        (next, context) => async (args) => {
          commands.push(String(context.commandName));
          return next(args);
        },
        { step: "initialize", name },
      );
    }
  });
  afterAll(() => {
    for (const client of clients) client.middlewareStack.remove(name);
  });
  return async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
    commands.length = 0;
    const result = await fn();
    return { result, requests: [...commands] };
  };
}

/** One request a piece of domain code sent, with the number of items DynamoDB read to answer it. */
export interface CountedRead {
  readonly command: string;
  /**
   * Items read: a Query's or Scan's `ScannedCount` (items evaluated before any filter, which is what a
   * FilterExpression over a whole partition costs), 1 for a GetItem that found its item, the responses of a
   * BatchGetItem or TransactGetItems; 0 for anything else.
   */
  readonly items: number;
}

function itemsRead(output: Record<string, unknown> | undefined): number {
  if (!output) return 0;
  if (typeof output.ScannedCount === "number") return output.ScannedCount;
  if (typeof output.Count === "number") return output.Count;
  if ("Item" in output) return output.Item ? 1 : 0;
  const responses = output.Responses;
  if (Array.isArray(responses)) return responses.length;
  if (responses && typeof responses === "object")
    return Object.values(responses as Record<string, unknown[]>).reduce((n, items) => n + items.length, 0);
  return 0;
}

/**
 * Like `requestCounter`, for DynamoDB clients, but also counts the items each request read: the measure of
 * a page whose cost must not grow with what the partition holds besides the page.
 */
export function readCounter(...clients: DynamoDBClient[]) {
  const reads: CountedRead[] = [];
  const name = `count-reads-${Math.random().toString(36).slice(2)}`;
  beforeAll(() => {
    for (const client of clients) {
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const out = await next(args);
          reads.push({
            command: String(context.commandName),
            items: itemsRead(out.output as unknown as Record<string, unknown> | undefined),
          });
          return out;
        },
        { step: "initialize", name },
      );
    }
  });
  afterAll(() => {
    for (const client of clients) client.middlewareStack.remove(name);
  });
  return async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; reads: CountedRead[] }> {
    reads.length = 0;
    const result = await fn();
    return { result, reads: [...reads] };
  };
}
