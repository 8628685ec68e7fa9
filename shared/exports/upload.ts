/**
 * The export files in S3 (s3rver locally), written as the worker produces them: a multipart upload through
 * two reused part buffers, one filling while the other uploads. Only the export worker imports this module.
 *
 * Hand-written rather than lib-storage's `Upload`: fed a stream, `Upload` copies every part out of the
 * stream's chunks (`Buffer.concat`), and those copies wait for V8's external-memory collection (which starts
 * only past 64 MiB), so the worker's memory rose with the file up to that point (the bench's **exports**
 * measure: 10,000 rows → 100,000 rows, +20 to +37 MiB). Here the text is encoded straight into the part
 * buffer: the same two buffers whatever the file's size, and no garbage per part.
 */
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { exportConfig } from "./config.js";
import { s3 } from "./s3.js";

/** S3's smallest part but the last. */
export const PART_BYTES = 5 * 1024 * 1024;

export interface FileMeta {
  readonly contentType: string;
  readonly filename: string;
}

/**
 * Writes one object from text written in order. A file under one part is a single PutObject; a larger one a
 * multipart upload, aborted if anything fails (the bucket's lifecycle also removes incomplete uploads).
 */
export class ExportFile {
  // Written through once (fill), so their memory is committed at the start, not page by page as a large
  // file first reaches it: the worker's footprint is the same at 10 rows as at 10 million.
  private readonly buffers = [Buffer.allocUnsafeSlow(PART_BYTES).fill(0), Buffer.allocUnsafeSlow(PART_BYTES).fill(0)];
  private current = 0;
  private offset = 0;
  private uploadId: string | undefined;
  private readonly parts: CompletedPart[] = [];
  /** The part being uploaded; its buffer is filled again only after it settles. */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly key: string,
    private readonly meta: FileMeta,
  ) {}

  private get params() {
    return {
      Bucket: exportConfig.bucket,
      Key: this.key,
      ContentType: this.meta.contentType,
      ContentDisposition: `attachment; filename="${this.meta.filename}"`,
    };
  }

  /** Appends `text` (UTF-8), uploading each part as it fills. */
  async write(text: string): Promise<void> {
    const room = PART_BYTES - this.offset;
    if (Buffer.byteLength(text) <= room) {
      this.offset += (this.buffers[this.current] as Buffer).write(text, this.offset);
      return;
    }
    // Across a part's end (once a part): the bytes that fit, then the rest into the next part.
    let bytes = Buffer.from(text);
    while (bytes.length > 0) {
      const n = bytes.copy(this.buffers[this.current] as Buffer, this.offset, 0, PART_BYTES - this.offset);
      this.offset += n;
      bytes = bytes.subarray(n);
      if (this.offset === PART_BYTES) await this.flush();
    }
  }

  /** Sends the filled buffer as the next part (after the previous part's upload settles) and switches buffers. */
  private async flush(): Promise<void> {
    await this.inFlight;
    if (this.uploadId === undefined) {
      const created = await s3.send(new CreateMultipartUploadCommand(this.params));
      this.uploadId = created.UploadId;
    }
    const body = (this.buffers[this.current] as Buffer).subarray(0, this.offset);
    const PartNumber = this.parts.length + 1;
    this.parts.push({ PartNumber });
    this.inFlight = s3
      .send(new UploadPartCommand({ Bucket: exportConfig.bucket, Key: this.key, UploadId: this.uploadId, PartNumber, Body: body }))
      .then((out) => {
        // The part's checksums, when the client sent them, must be named again at completion.
        const checksums = Object.entries(out).filter(([k, v]) => k.startsWith("Checksum") && k !== "ChecksumType" && typeof v === "string");
        this.parts[PartNumber - 1] = { PartNumber, ETag: out.ETag, ...Object.fromEntries(checksums) };
      });
    // Settled later; until then a failure must not go unhandled.
    this.inFlight.catch(() => {});
    this.current = 1 - this.current;
    this.offset = 0;
  }

  /** Writes what remains and completes the object. */
  async end(): Promise<void> {
    if (this.uploadId === undefined) {
      const body = (this.buffers[this.current] as Buffer).subarray(0, this.offset);
      await s3.send(new PutObjectCommand({ ...this.params, Body: body }));
      return;
    }
    if (this.offset > 0) await this.flush();
    await this.inFlight;
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: exportConfig.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** Gives up: the parts uploaded so far are discarded. */
  async abort(): Promise<void> {
    await this.inFlight.catch(() => {});
    if (this.uploadId === undefined) return;
    await s3.send(new AbortMultipartUploadCommand({ Bucket: exportConfig.bucket, Key: this.key, UploadId: this.uploadId }));
  }
}
