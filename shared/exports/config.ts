/**
 * Settings of the full exports (DESIGN.md §11), read and checked once at module load. Only the export
 * functions import this module, so no other function needs the bucket's name or pays for the S3 client.
 */
import { envInt } from "../numbers.js";

export const exportConfig = {
  /** The bucket the files go to; its lifecycle removes them after `fileDays`. */
  bucket: process.env.EXPORTS_BUCKET || "institution-admin-exports",
  /** s3rver locally; unset in AWS. */
  s3Endpoint: process.env.S3_ENDPOINT || undefined,
  /** The worker function, invoked asynchronously after the request (AWS); locally the worker runs in-process. */
  workerFunction: process.env.EXPORT_WORKER_FUNCTION || undefined,
  /** At most this many exports of one account run at a time (429 beyond). */
  slots: envInt("EXPORT_SLOTS", 2),
  /** A worker that has not finished after this long has failed (the worker function's timeout is below it). */
  leaseSeconds: envInt("EXPORT_LEASE_SECONDS", 900),
  /** How long a download link stays valid. */
  linkSeconds: 15 * 60,
  /** The bucket's lifecycle, and how long an export's record says its file is kept. */
  fileDays: envInt("EXPORT_FILE_DAYS", 7),
} as const;
