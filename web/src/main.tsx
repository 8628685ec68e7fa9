import "@cloudscape-design/global-styles/index.css";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { loadConfig, setConfig } from "./config";
import { keepInvitationToken } from "./invitation";

// The token leaves the address bar (and so the history) before anything renders; see invitation.ts.
keepInvitationToken();

const root = createRoot(document.getElementById("root") as HTMLElement);
loadConfig().then(
  (config) => {
    setConfig(config);
    root.render(<App />);
  },
  (err: unknown) => {
    // Without its configuration the console cannot sign anyone in: say so in plain HTML.
    const main = document.createElement("main");
    main.setAttribute("style", "font-family: sans-serif; padding: 2rem");
    const h1 = document.createElement("h1");
    h1.textContent = "The console cannot start";
    const p = document.createElement("p");
    p.textContent = `Its configuration could not be loaded (${(err as Error).message}). Reload the page; if this persists, the console is not deployed completely.`;
    main.append(h1, p);
    document.getElementById("root")?.replaceChildren(main);
  },
);
