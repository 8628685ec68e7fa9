/** Presigned download links to the export files (the show route's only). */
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { exportConfig } from "./config.js";
import { s3 } from "./s3.js";

/** A GET link to `key`, valid `exportConfig.linkSeconds`, that downloads it as `filename`. */
export function downloadUrl(key: string): Promise<string> {
  return getSignedUrl(s3, new GetObjectCommand({ Bucket: exportConfig.bucket, Key: key }), { expiresIn: exportConfig.linkSeconds });
}
