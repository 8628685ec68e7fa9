/**
 * The API document's own two operations: the document and its reference page.
 */
import { paths } from "../../routes.js";
import type { Spec } from "../spec.js";

export function docsSpecs(): Record<string, Spec> {
  return {
    [`GET ${paths.openapi}`]: {
      operationId: "getApiDocument",
      summary: "This document",
      description: "No token needed.",
      tag: "API document",
      success: {
        status: "200",
        description: "The OpenAPI 3.1 document.",
        schema: { type: "object", properties: { openapi: { type: "string", const: "3.1.0" } }, required: ["openapi"] },
        example: undefined,
      },
    },
    [`GET ${paths.docs}`]: {
      operationId: "getApiReference",
      summary: "The API reference page",
      description: "An interactive page (Swagger UI, served by this API, no CDN) built from this document. No token needed.",
      tag: "API document",
      success: { status: "200", description: "The HTML page.", schema: { type: "string" }, example: undefined, media: "text/html" },
    },
  };
}
