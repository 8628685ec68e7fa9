/** The local stack's signer: the ECDSA P-256 key pair it generated into `.local/` (infra/local/stack.ts). */

import { sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { CORE, DIGESTER, readSettings } from "../settings.js";
import type { Signer } from "./digest.js";

export function localSigner(keyId: string, privateKeyFile: string): Signer {
  const key = readFileSync(privateKeyFile, "utf8");
  return {
    keyId,
    // The same algorithm as KMS `ECDSA_SHA_256` with a `RAW` message: SHA-256, then ECDSA P-256, DER-encoded.
    sign: async (message) => sign("sha256", message, { key, dsaEncoding: "der" }).toString("base64"),
  };
}

/** The local signer named by the environment the local stack sets (`DIGEST_KEY_ID`, `DIGEST_PRIVATE_KEY_FILE`). */
export function localSignerFromEnv(): Signer {
  const { DIGEST_KEY_ID: id, DIGEST_PRIVATE_KEY_FILE: file } = readSettings({ ...CORE(), ...DIGESTER() }, [
    "DIGEST_KEY_ID",
    "DIGEST_PRIVATE_KEY_FILE",
  ]);
  if (!id || !file) throw new Error("DIGEST_KEY_ID and DIGEST_PRIVATE_KEY_FILE are required to sign digests locally");
  return localSigner(id, file);
}
