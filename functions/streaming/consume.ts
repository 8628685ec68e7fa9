// The events table's stream (event source mapping, infra/streaming.ts; locally infra/local/workers.ts polls it).
import type { DynamoDBStreamEvent } from "aws-lambda";
import { consume, type StreamRecord } from "../../shared/streaming/consumer.js";

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await consume(event.Records as unknown as StreamRecord[]);
};
