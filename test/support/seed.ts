/** Fast direct writes for test and benchmark setup (the API under test is never seeded through). */
import { BatchWriteCommand, type BatchWriteCommandOutput } from "@aws-sdk/lib-dynamodb";
import { db } from "../../shared/clients.js";

/** Runs `fn` over `items` with at most `limit` in flight; the results in the order of `items`. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}

/** Puts `items` into `table` by BatchWriteItem, 25 per request and 8 requests at a time, retrying unprocessed items and timeouts. */
export async function putItems(table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  await inParallel(batches, 8, async (batch) => {
    let pending: unknown[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 10) throw new Error("BatchWrite kept returning unprocessed items or timing out");
      try {
        const out: BatchWriteCommandOutput = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
        pending = out.UnprocessedItems?.[table];
      } catch (err) {
        // Puts are idempotent, so a batch that timed out (DynamoDB Local on a busy machine) is sent again.
        if ((err as Error).name !== "TimeoutError") throw err;
      }
    }
  });
}
