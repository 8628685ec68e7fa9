/**
 * The digest function (docs/trail.md), run by an EventBridge Scheduler schedule a few minutes after every
 * hour: digests each ended hour's events per account, signs each digest with the stack's KMS key (ECDSA P-256,
 * `ECDSA_SHA_256`; the role may only `kms:Sign` with it) and copies it to the digest bucket (S3 Object Lock in
 * prod) before storing it. The only function that bundles the KMS and S3 clients.
 */

import { KMSClient, SignCommand } from "@aws-sdk/client-kms";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { observe } from "../../shared/aws.js";
import { now as clock } from "../../shared/clock.js";
import { config } from "../../shared/config.js";
import { DIGESTER, need, readSettings } from "../../shared/settings.js";
import { keyPart } from "../../shared/tables.js";
import { logger } from "../../shared/telemetry.js";
import { canonical, type Digest, type Signer } from "../../shared/trail/digest.js";
import { runDigester } from "../../shared/trail/digester.js";

const env = readSettings(DIGESTER(), ["DIGEST_KEY_ARN", "DIGEST_BUCKET"]);
const keyId = need(env.DIGEST_KEY_ARN, "DIGEST_KEY_ARN");
const bucket = need(env.DIGEST_BUCKET, "DIGEST_BUCKET");
const kms = observe(new KMSClient({ region: config.region }));
const s3 = observe(new S3Client({ region: config.region }));

const signer: Signer = {
  keyId,
  async sign(message) {
    const out = await kms.send(new SignCommand({ KeyId: keyId, Message: message, MessageType: "RAW", SigningAlgorithm: "ECDSA_SHA_256" }));
    if (!out.Signature) throw new Error("KMS returned no signature");
    return Buffer.from(out.Signature).toString("base64");
  },
};

/** `<account>/<period start>-<sequence>.json`: one object per digest, never overwritten under Object Lock. */
async function copy(d: Digest): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: `${keyPart(d.account_id)}/${d.period_start}-${String(d.sequence).padStart(10, "0")}.json`,
      Body: canonical(d),
      ContentType: "application/json",
    }),
  );
}

export const handler = async (): Promise<{ digests: number }> => {
  const written = await runDigester({ now: clock(), signer, copy });
  logger.info("digests written", { digests: written.length });
  return { digests: written.length };
};
