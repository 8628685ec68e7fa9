/**
 * Records the AWS requests a piece of domain code makes, with a middleware on the SDK clients, and checks
 * them against what the design promises of every request (docs/contract/README.md#data-guarantees): no Scan, reads bounded by
 * what the answer shows (not by what the table holds), and a change written in one transaction.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SESClient } from "@aws-sdk/client-ses";
import { afterAll, beforeAll, expect } from "vitest";

type Client = DynamoDBClient | SESClient;

/** One request a piece of domain code sent. */
export interface SentRequest {
  /** Without the `Command` suffix: `Query`, `GetItem`, `TransactWriteItems`, `SendEmail`. */
  readonly command: string;
  readonly input: Record<string, unknown>;
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

/** Installs the recorder on `clients` for the current file; `counted(fn)` runs fn and returns what it sent. */
export function requestCounter(...clients: Client[]) {
  const sent: SentRequest[] = [];
  const name = `count-requests-${Math.random().toString(36).slice(2)}`;
  beforeAll(() => {
    for (const client of clients) {
      // One middleware for either client: it needs only the command's name, input and output.
      (client as DynamoDBClient).middlewareStack.add(
        (next, context) => async (args) => {
          const out = await next(args);
          sent.push({
            command: String(context.commandName).replace(/Command$/, ""),
            input: { ...(args.input as Record<string, unknown>) },
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
  return async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; requests: SentRequest[] }> {
    sent.length = 0;
    const result = await fn();
    return { result, requests: [...sent] };
  };
}

const WRITES = new Set(["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"]);

/** Items the requests read in all. */
export const itemsReadBy = (requests: readonly SentRequest[]): number => requests.reduce((n, r) => n + r.items, 0);

/**
 * The design's promise for one use case's requests: no Scan and no filter over what was read; at most
 * `maxItemsRead` items read (a bound from what the answer shows); and `change`: its write is exactly one
 * transaction (the change with its audit event), or nothing is written at all. `filter` names the one
 * filter the design allows (the list's user-and-type filter: repository.ts); the bound still counts every
 * item read, kept or not.
 */
export function expectWithinDesign(
  requests: readonly SentRequest[],
  { maxItemsRead, change, filter }: { maxItemsRead: number; change: boolean; filter?: string },
): void {
  const shown = JSON.stringify(requests.map((r) => [r.command, r.items]));
  expect(
    requests.filter((r) => r.command === "Scan" || ("FilterExpression" in r.input && r.input.FilterExpression !== filter)),
    shown,
  ).toEqual([]);
  expect(itemsReadBy(requests), shown).toBeLessThanOrEqual(maxItemsRead);
  expect(
    requests.filter((r) => WRITES.has(r.command)).map((r) => r.command),
    shown,
  ).toEqual(change ? ["TransactWriteItems"] : []);
}
