/**
 * AWS clients as module-scope singletons, so warm invocations reuse connections. Endpoints are
 * overridable for the local stack. Timeouts and retries are bounded on purpose: when DynamoDB is
 * unreachable the caller gets a prompt 503 instead of a hung request.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { config } from "./config.js";

const localCredentials = config.endpoints.dynamodb
  ? { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "local", secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "local" }
  : undefined;

export const dynamo = new DynamoDBClient({
  region: config.region,
  endpoint: config.endpoints.dynamodb,
  ...(localCredentials && { credentials: localCredentials }),
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
});

export const db = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});
