/**
 * Reads DynamoDB Local's stream of the events table and hands each batch of records to the stream consumer's
 * handler, as Lambda's event source mapping does in AWS (docs/events-out.md). A batch whose handler throws is read
 * again on the next poll (the shard iterator does not move on), so no event is skipped.
 */
import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import { LOCAL_CREDENTIALS } from "./env.js";

export interface StreamPoller {
  stop(): Promise<void>;
}

interface Shard {
  readonly id: string;
  iterator: string | undefined;
  /** The last record handed to the handler: a fresh iterator continues after it. */
  lastSequence?: string | undefined;
  /** No more records will come (a closed shard, read to its end). */
  done: boolean;
}

export async function startStreamPoller(opts: {
  endpoint: string;
  region: string;
  table: string;
  handle: (records: _Record[]) => Promise<void>;
  intervalMs?: number;
}): Promise<StreamPoller> {
  const clientOpts = { endpoint: opts.endpoint, region: opts.region, credentials: LOCAL_CREDENTIALS };
  const db = new DynamoDBClient(clientOpts);
  const streams = new DynamoDBStreamsClient(clientOpts);
  /** The table's current stream: a new one when the table is made again (a fault test restarts DynamoDB Local). */
  const currentStream = async () => {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: opts.table }));
    if (!Table?.LatestStreamArn) throw new Error(`table ${opts.table} has no stream`);
    return Table.LatestStreamArn;
  };
  let streamArn = await currentStream();
  const shards = new Map<string, Shard>();
  let first = true;
  let stopped = false;

  /** Shards not seen before: the ones open at start are read from now on, later ones from their start. */
  const discover = async () => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const s of StreamDescription?.Shards ?? []) {
      if (!s.ShardId || shards.has(s.ShardId)) continue;
      const open = s.SequenceNumberRange?.EndingSequenceNumber === undefined;
      if (first && !open) {
        shards.set(s.ShardId, { id: s.ShardId, iterator: undefined, done: true });
        continue;
      }
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: s.ShardId,
          ShardIteratorType: first ? "LATEST" : "TRIM_HORIZON",
        }),
      );
      shards.set(s.ShardId, { id: s.ShardId, iterator: ShardIterator, done: false });
    }
    first = false;
  };

  /**
   * A new iterator after the last record handled (or from the shard's start): DynamoDB Local sometimes refuses
   * an iterator it handed out (TrimmedDataAccessException), and iterators expire after 15 minutes.
   */
  const renew = async (shard: Shard) => {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shard.id,
        ...(shard.lastSequence
          ? { ShardIteratorType: "AFTER_SEQUENCE_NUMBER", SequenceNumber: shard.lastSequence }
          : { ShardIteratorType: "TRIM_HORIZON" }),
      }),
    );
    shard.iterator = ShardIterator;
  };

  const read = async (shard: Shard) => {
    try {
      return await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 100 }));
    } catch (err) {
      const name = (err as Error).name;
      if (name !== "TrimmedDataAccessException" && name !== "ExpiredIteratorException") throw err;
      await renew(shard);
      return streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 100 }));
    }
  };

  /** A stream that is gone: read its table's new one from its start (every record in it is new). */
  const follow = async () => {
    const latest = await currentStream();
    if (latest === streamArn) return;
    streamArn = latest;
    shards.clear();
    first = false;
  };

  const pollOnce = async () => {
    try {
      await discover();
    } catch (err) {
      if ((err as Error).name !== "ResourceNotFoundException") throw err;
      await follow();
      await discover();
    }
    for (const shard of shards.values()) {
      while (!shard.done && shard.iterator) {
        const out = await read(shard);
        const records = out.Records ?? [];
        if (records.length > 0) {
          await opts.handle(records);
          shard.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber;
        }
        shard.iterator = out.NextShardIterator;
        if (!shard.iterator) shard.done = true;
        if (records.length === 0) break;
      }
    }
  };

  await discover();
  const loop = (async () => {
    while (!stopped) {
      try {
        await pollOnce();
      } catch (err) {
        console.error(`[stream poller] ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 250));
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await loop;
      db.destroy();
      streams.destroy();
    },
  };
}
