/**
 * The idempotency records' reads and writes, and the logger, for idempotency.ts, which http.ts imports
 * dynamically and hands these to. They are apart from it because a dynamically imported module that imported
 * the DynamoDB client (as Powertools' own DynamoDB persistence layer does) would make esbuild keep every
 * DynamoDB command and schema in the bundle, and evaluate them at each cold start of a POST function.
 */

import {
  DeleteCommand,
  type DeleteCommandInput,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { db } from "./clients.js";
import { logger } from "./telemetry.js";

type Item = Record<string, unknown>;

export const idempotencyTable = {
  /** The record under `key` of the `id` attribute, read strongly consistent. */
  get: async (TableName: string, id: string): Promise<Item | undefined> =>
    (await db.send(new GetCommand({ TableName, Key: { id }, ConsistentRead: true }))).Item,
  /** A conditional put: `undefined` when written, else the record that failed the condition (ALL_OLD). */
  put: async (input: PutCommandInput): Promise<{ existing: Item | undefined } | undefined> => {
    try {
      await db.send(new PutCommand(input));
      return undefined;
    } catch (err) {
      if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
      // The DocumentClient leaves the old item of a failed condition in DynamoDB's own format.
      const old = (err as { Item?: Parameters<typeof unmarshall>[0] }).Item;
      return { existing: old && unmarshall(old) };
    }
  },
  update: async (input: UpdateCommandInput): Promise<void> => {
    await db.send(new UpdateCommand(input));
  },
  delete: async (input: DeleteCommandInput): Promise<void> => {
    await db.send(new DeleteCommand(input));
  },
  logger,
};

export type IdempotencyTable = typeof idempotencyTable;
