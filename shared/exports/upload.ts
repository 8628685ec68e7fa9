/**
 * The export files in S3 (s3rver locally), written by a streamed multipart upload. Only the export worker
 * imports this module, so only its bundle holds lib-storage.
 */
import type { Readable } from "node:stream";
import { Upload } from "@aws-sdk/lib-storage";
import { exportConfig } from "./config.js";
import { s3 } from "./s3.js";

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
