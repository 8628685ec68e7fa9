/**
 * A browser's part in a sign-in through the pool's managed login (docs/sso.md#the-managed-login-locally), over HTTP only: follow
 * redirects, keep cookies (by host name, as a browser does: ports share them), submit the pages' forms (an IdP's
 * sign-in form, a SAML response's auto-posting form), and stop at the app's redirect URI, whose query it returns.
 */
import { createHash, randomBytes } from "node:crypto";

export interface Page {
  readonly url: string;
  readonly status: number;
  readonly body: string;
}

/** The first form of an HTML page: where it posts, and its named inputs' values. */
export function formOf(page: Page): { action: string; fields: Record<string, string> } | undefined {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(page.body);
  if (!form) return undefined;
  const action = /action="([^"]*)"/i.exec(form[0])?.[1] ?? "";
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const fields: Record<string, string> = {};
  for (const input of form[1]?.match(/<input\b[^>]*>/gi) ?? []) {
    const name = /name="([^"]*)"/i.exec(input)?.[1];
    if (name !== undefined) fields[decode(name)] = decode(/value="([^"]*)"/i.exec(input)?.[1] ?? "");
  }
  return { action: new URL(decode(action), page.url).href, fields };
}

export class Browser {
  readonly #jar = new Map<string, Map<string, string>>();
  /** Requests made, in order (method and URL): what the person's browser went through. */
  readonly visited: string[] = [];

  constructor(private readonly stopAt: string) {}

  cookie(host: string, name: string): string | undefined {
    return this.#jar.get(host)?.get(name);
  }

  #store(url: URL, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attrs] = line.split(";");
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const jar = this.#jar.get(url.hostname) ?? new Map<string, string>();
      this.#jar.set(url.hostname, jar);
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) jar.delete(pair.slice(0, at).trim());
      else jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  /**
   * Goes to `url` (a GET, or a form POST), following redirects until a page answers or a redirect reaches the
   * app's redirect URI (`stopAt`): that is returned as a page of status 302 without being fetched.
   */
  async go(url: string, form?: Record<string, string>): Promise<Page> {
    let next: { url: string; form?: Record<string, string> | undefined } = { url, form };
    for (let hop = 0; hop < 20; hop++) {
      if (next.url.startsWith(this.stopAt)) return { url: next.url, status: 302, body: "" };
      const target = new URL(next.url);
      const cookies = [...(this.#jar.get(target.hostname) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join("; ");
      this.visited.push(`${next.form ? "POST" : "GET"} ${target.origin}${target.pathname}`);
      const res = await fetch(target, {
        method: next.form ? "POST" : "GET",
        redirect: "manual",
        headers: {
          ...(cookies && { cookie: cookies }),
          ...(next.form && { "content-type": "application/x-www-form-urlencoded" }),
        },
        ...(next.form && { body: new URLSearchParams(next.form).toString() }),
      });
      this.#store(target, res);
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        next = { url: new URL(location, target).href };
        continue;
      }
      return { url: target.href, status: res.status, body: await res.text() };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Submits the page's form with `values` over its fields. */
  async submit(page: Page, values: Record<string, string> = {}): Promise<Page> {
    const form = formOf(page);
    if (!form) throw new Error(`no form on ${page.url} (${page.status}): ${page.body.slice(0, 300)}`);
    return this.go(form.action, { ...form.fields, ...values });
  }
}

/** A PKCE verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}
