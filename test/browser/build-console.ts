/** Global setup: the browser tests need the console built from the current sources (cheap when it is). */
import { ensureConsoleBuilt } from "../../infra/local/console-build.js";

export default async function setup(): Promise<void> {
  await ensureConsoleBuilt({ log: (line) => console.log(`[console] ${line}`) });
}
