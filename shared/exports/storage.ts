/**
 * The export files in S3 (s3rver locally): a streamed multipart upload, and a presigned download link.
 * Only the export functions import this module, so only their bundles hold the S3 client.
 */
import type { Readable } from "node:stream";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { config } from "../config.js";
import { exportConfig } from "./config.js";

export const s3 = new S3Client({
  region: config.region,
  endpoint: exportConfig.s3Endpoint,
  // s3rver serves buckets by path, not by host name.
  forcePathStyle: exportConfig.s3Endpoint !== undefined,
  // s3rver accepts only its own fixed key pair; in AWS the function's role signs.
  ...(exportConfig.s3Endpoint && { credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } }),
});

/**
 * S3's smallest part: the upload holds at most `QUEUE + 1` parts of it in memory, whatever the file's size,
 * and a part goes out while the next one fills.
 */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 1;

/** Uploads `body` as `key`, in parts as it is produced; rejects (and aborts the upload) if it fails. */
export async function uploadStream(key: string, body: Readable, meta: { contentType: string; filename: string }): Promise<void> {
  const upload = new Upload({
    client: s3,
    params: {
      Bucket: exportConfig.bucket,
      Key: key,
      Body: body,
      ContentType: meta.contentType,
      ContentDisposition: `attachment; filename="${meta.filename}"`,
    },
    partSize: PART_BYTES,
    queueSize: QUEUE,
  });
  await upload.done();
}

/** A GET link to `key`, valid `exportConfig.linkSeconds`, that downloads it as `filename`. */
export function downloadUrl(key: string): Promise<string> {
  return getSignedUrl(s3, new GetObjectCommand({ Bucket: exportConfig.bucket, Key: key }), { expiresIn: exportConfig.linkSeconds });
}
