/**
 * SAML 2.0 metadata, checked before a connection is saved (docs/sso.md): one identity provider's
 * EntityDescriptor with an IDPSSODescriptor that has a signing certificate (an X.509 certificate that parses)
 * and a single sign-on service (HTTP-Redirect or HTTP-POST binding, at an https URL; http to loopback where
 * the local stack allows it).
 *
 * Parsed safely: a document with a DOCTYPE is refused before any parser sees it, so no external entity is
 * fetched and no entity expanded ("billion laughs"); @xmldom/xmldom, namespace-aware, does neither anyway.
 * xmldom is imported when a document is first parsed: the SSO connection's function evaluates it (91 KiB, an HTML
 * entity table included) only for a SAML connect or update, not at each cold start (docs/cold-starts.md).
 */
import { X509Certificate } from "node:crypto";
import type { Element } from "@xmldom/xmldom";

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
export const BINDINGS = {
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  post: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
} as const;

export const METADATA_ERRORS = {
  doctype: "Metadata must not contain a DOCTYPE or entity declarations",
  malformed: "Metadata is not well-formed XML",
  notMetadata: "Metadata is not SAML 2.0 metadata (an EntityDescriptor)",
  several: "Metadata describes more than one identity provider: give your institution's own",
  noIdp: "Metadata has no identity provider descriptor (IDPSSODescriptor) for SAML 2.0",
  noEntityId: "Metadata has no entityID",
  noCertificate: "Metadata has no signing certificate",
  noSso: "Metadata has no single sign-on service (HTTP-Redirect or HTTP-POST binding)",
} as const;

/** What the service keeps of an IdP's metadata. */
export interface SamlIdp {
  readonly entity_id: string;
  /** Single sign-on endpoints by binding (the redirect one first when both). */
  readonly sso: readonly { readonly binding: string; readonly location: string }[];
  /** Base64 DER of each signing certificate. */
  readonly certificates: readonly string[];
}

const children = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.childNodes).filter(
    (n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name,
  );

function descendants(parent: Element, ns: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, name));
}

/** The IdP of `xml`, or every problem found. `locationOk` judges a single sign-on URL. */
export async function parseIdpMetadata(
  xml: string,
  locationOk: (url: string) => boolean,
): Promise<{ idp: SamlIdp } | { errors: string[] }> {
  // Before any parser: no DTD, so no external entity and no expansion, whatever a parser would do with them.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return { errors: [METADATA_ERRORS.doctype] };
  const { DOMParser } = await import("@xmldom/xmldom");
  let root: Element | null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
    }).parseFromString(xml, "text/xml");
    root = doc.documentElement;
  } catch {
    return { errors: [METADATA_ERRORS.malformed] };
  }
  if (!root || root.namespaceURI !== MD || (root.localName !== "EntityDescriptor" && root.localName !== "EntitiesDescriptor")) {
    return { errors: [METADATA_ERRORS.notMetadata] };
  }
  const entities = root.localName === "EntityDescriptor" ? [root] : descendants(root, MD, "EntityDescriptor");
  const idps = entities.flatMap((entity) =>
    children(entity, MD, "IDPSSODescriptor")
      .filter((d) => (d.getAttribute("protocolSupportEnumeration") ?? "").split(/\s+/).includes(PROTOCOL))
      .map((descriptor) => ({ entity, descriptor })),
  );
  if (idps.length > 1) return { errors: [METADATA_ERRORS.several] };
  const [found] = idps;
  if (!found) return { errors: [METADATA_ERRORS.noIdp] };
  const errors: string[] = [];
  const entityId = (found.entity.getAttribute("entityID") ?? "").trim();
  if (entityId === "" || entityId.length > 1024) errors.push(METADATA_ERRORS.noEntityId);
  const certificates = children(found.descriptor, MD, "KeyDescriptor")
    .filter((k) => {
      const use = k.getAttribute("use");
      return use === null || use === "" || use === "signing";
    })
    .flatMap((k) => descendants(k, DS, "X509Certificate"))
    .map((c) => (c.textContent ?? "").replace(/\s+/g, ""))
    .filter((b64) => {
      try {
        return b64 !== "" && new X509Certificate(Buffer.from(b64, "base64")).publicKey !== undefined;
      } catch {
        return false;
      }
    });
  if (certificates.length === 0) errors.push(METADATA_ERRORS.noCertificate);
  const sso = children(found.descriptor, MD, "SingleSignOnService")
    .map((s) => ({ binding: s.getAttribute("Binding") ?? "", location: (s.getAttribute("Location") ?? "").trim() }))
    .filter((s) => (s.binding === BINDINGS.redirect || s.binding === BINDINGS.post) && locationOk(s.location))
    .sort((a, b) => Number(b.binding === BINDINGS.redirect) - Number(a.binding === BINDINGS.redirect));
  if (sso.length === 0) errors.push(METADATA_ERRORS.noSso);
  if (errors.length > 0) return { errors };
  return { idp: { entity_id: entityId, sso, certificates: [...new Set(certificates)] } };
}
