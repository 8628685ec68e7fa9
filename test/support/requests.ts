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
