/** Where the pool's managed login sends a single sign-on back (the app client's callback URL, docs/sso.md). */
export const SSO_CALLBACK_PATH = "/sso/callback";
