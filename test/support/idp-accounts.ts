/**
 * The people the local identity providers (oidc-idp.ts, saml-idp.ts) can sign in, and the small HTML pages they
 * show: a person picks who signs in by typing an account's id (the tests fill the same field), and each account
 * asserts whatever e-mail and groups it was given, an e-mail of another institution's domain included (the
 * hostile cases of docs/sso.md).
 */

export interface IdpAccount {
  /** What is typed on the IdP's sign-in page; also the OIDC `sub` and the SAML NameID unless `subject` is set. */
  readonly id: string;
  readonly subject?: string;
  /** Left out: the IdP asserts no e-mail. */
  readonly email?: string;
  readonly name?: string;
  readonly groups?: readonly string[];
}

/** A mutable set of accounts by id; ids are data (a Map, so `__proto__` is an id like any other). */
export class Accounts {
  readonly #byId = new Map<string, IdpAccount>();
  constructor(initial: readonly IdpAccount[] = []) {
    for (const a of initial) this.put(a);
  }
  put(account: IdpAccount): void {
    this.#byId.set(account.id, account);
  }
  get(id: string): IdpAccount | undefined {
    return this.#byId.get(id);
  }
  list(): IdpAccount[] {
    return [...this.#byId.values()];
  }
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The sign-in page: a form posting `login` (an account's id) and the `hidden` fields to `action`. */
export function loginPage(opts: {
  title: string;
  action: string;
  hidden: Readonly<Record<string, string>>;
  accounts: readonly IdpAccount[];
  error?: string;
}): string {
  const hidden = Object.entries(opts.hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  const people = opts.accounts
    .map(
      (a) => `<li><code>${escapeHtml(a.id)}</code> ${escapeHtml(a.email ?? "(no e-mail)")} ${escapeHtml((a.groups ?? []).join(", "))}</li>`,
    )
    .join("");
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(opts.title)}</title></head><body>
<h1>${escapeHtml(opts.title)}</h1>${opts.error ? `<p role="alert">${escapeHtml(opts.error)}</p>` : ""}
<form method="post" action="${escapeHtml(opts.action)}">${hidden}
<label>Account <input name="login" autofocus></label> <button type="submit">Sign in</button></form>
<p>Test accounts:</p><ul>${people}</ul></body></html>`;
}

/** A page that posts `fields` to `action` at once, as an IdP hands a SAML response to the service provider. */
export function autoPostPage(action: string, fields: Readonly<Record<string, string>>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  return `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form></body></html>`;
}

/** A urlencoded request body. */
export async function formBody(req: import("node:http").IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 256 * 1024) throw new Error("form too large");
    chunks.push(c as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
