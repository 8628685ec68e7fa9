/**
 * The entry: small on purpose. It starts at once, in parallel, everything the first page waits for (the
 * configuration, the frame's code, and for a signed-in visit to the institutions its code and its data),
 * instead of discovering each only once the previous one has run.
 */
import { apiPaths, prefetch } from "./api";
import { getSession } from "./auth/session";
import { loadConfig } from "./config";
import { keepInvitationToken } from "./invitation";

// The token leaves the address bar (and so the history) before anything renders; see invitation.ts.
keepInvitationToken();

const config = loadConfig();
const app = import("./App");
const session = getSession();
if (session && session.expiresAt > Date.now() + 10_000 && /^\/(institutions\/?)?$/.test(location.pathname)) {
  prefetch(apiPaths.institutions);
  void import("./pages/Institutions");
}

const root = document.getElementById("root") as HTMLElement;
Promise.all([config, app]).then(
  ([, { mount }]) => mount(root),
  (err: unknown) => {
    // Without its configuration the console cannot sign anyone in: say so in plain HTML.
    const main = document.createElement("main");
    main.setAttribute("style", "font-family: sans-serif; padding: 2rem");
    const h1 = document.createElement("h1");
    h1.textContent = "The console cannot start";
    const p = document.createElement("p");
    p.textContent = `It could not load (${(err as Error).message}). Reload the page; if this persists, the console is not deployed completely.`;
    main.append(h1, p);
    root.replaceChildren(main);
  },
);
