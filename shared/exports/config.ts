/**
 * Settings of the full exports (docs/contract/exports.md), read and checked once at module load. Only the export
 * functions import this module, so no other function needs the bucket's name or pays for the S3 client.
 */
import { EXPORTS, readSettings } from "../settings.js";

const env = readSettings(EXPORTS(), [
  "EXPORTS_BUCKET",
  "S3_ENDPOINT",
  "EXPORT_WORKER_FUNCTION",
  "EXPORT_SLOTS",
  "EXPORT_LEASE_SECONDS",
  "EXPORT_FILE_DAYS",
]);

export const exportConfig = {
  /** The bucket the files go to; its lifecycle removes them after `fileDays`. */
  bucket: env.EXPORTS_BUCKET,
  /** s3rver locally; unset in AWS. */
  s3Endpoint: env.S3_ENDPOINT,
  /** The worker function, invoked asynchronously after the request (AWS); locally the worker runs in-process. */
  workerFunction: env.EXPORT_WORKER_FUNCTION,
  /** At most this many exports of one account run at a time (429 beyond). */
  slots: env.EXPORT_SLOTS,
  /** A worker that has not finished after this long has failed (the worker function's timeout is below it). */
  leaseSeconds: env.EXPORT_LEASE_SECONDS,
  /** How long a download link stays valid. */
  linkSeconds: 15 * 60,
  /** The bucket's lifecycle, and how long an export's record says its file is kept. */
  fileDays: env.EXPORT_FILE_DAYS,
} as const;
