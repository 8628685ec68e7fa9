/**
 * The SigV4 signer of shared/mail.ts. The local SES does not check signatures, so a wrong one would only
 * show in AWS: pin it to AWS's documented example and to what the SDK's SignatureV4 produces.
 */
import { describe, expect, it } from "vitest";

process.env.MAIN_TABLE ??= "unit-main";
process.env.EVENTS_TABLE ??= "unit-events";
const { signV4 } = await import("../../shared/mail.js");

describe("signV4", () => {
  it("matches the example of the AWS documentation (IAM ListUsers)", () => {
    const headers = signV4(
      {
        method: "GET",
        host: "iam.amazonaws.com",
        path: "/",
        query: "Action=ListUsers&Version=2010-05-08",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: "",
      },
      { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
      "us-east-1",
      "iam",
      new Date("2015-08-30T12:36:00Z"),
    );
    expect(headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, " +
        "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
    );
    expect(headers["x-amz-date"]).toBe("20150830T123600Z");
  });

  it("signs an SES SendEmail POST with a session token as the SDK's SignatureV4 does", () => {
    const body = JSON.stringify({
      FromEmailAddress: "a@b.c",
      Destination: { ToAddresses: ["x@y.z"] },
      Content: { Simple: { Subject: { Data: "Hi ünïcode", Charset: "UTF-8" } } },
    });
    const headers = signV4(
      {
        method: "POST",
        host: "email.eu-west-1.amazonaws.com",
        path: "/v2/email/outbound-emails",
        headers: { "content-type": "application/json" },
        body,
      },
      { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret/key+example", sessionToken: "tok en==" },
      "eu-west-1",
      "ses",
      new Date("2026-11-22T03:04:05.678Z"),
    );
    // Computed with @smithy/signature-v4 5.7.5 for the same request, credentials and instant.
    expect(headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20261122/eu-west-1/ses/aws4_request, " +
        "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, " +
        "Signature=35af8d1fbcba51b84c2986d56b8014c8fe9df2b0c887cbcbe45bdbb9172cb3d8",
    );
    expect(headers["x-amz-security-token"]).toBe("tok en==");
  });
});
