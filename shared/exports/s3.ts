/** The S3 client of the export functions (s3rver locally). */
import { S3Client } from "@aws-sdk/client-s3";
import { observe } from "../aws.js";
import { config } from "../config.js";
import { exportConfig } from "./config.js";

export const s3 = observe(
  new S3Client({
    region: config.region,
    endpoint: exportConfig.s3Endpoint,
    // s3rver serves buckets by path, not by host name.
    forcePathStyle: exportConfig.s3Endpoint !== undefined,
    // s3rver accepts only its own fixed key pair; in AWS the function's role signs.
    ...(exportConfig.s3Endpoint && { credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } }),
  }),
);
