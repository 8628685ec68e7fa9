/**
 * The Lambda context the local stack hands the functions it runs in its own process: the gateway's route
 * handlers, and the pool's triggers behind the local Lambda endpoint (lambda.ts).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";
import { localFunctionName } from "../../shared/pool-triggers.js";

/** A Lambda-like context; `deadline` is when the invocation times out. */
export function lambdaContext(handler: string, region: string, deadline: number): Context {
  const functionName = localFunctionName(handler);
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, "/");
  const unsupported = () => {
    throw new Error("callback-style completion is not supported; return a promise");
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:${region}:123456789012:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString("hex")}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
