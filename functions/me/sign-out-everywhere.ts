import { api, ok } from "../../shared/http.js";
import { signOutEverywhere } from "../../shared/people/service.js";

export const handler = api(async ({ caller }) => ok(await signOutEverywhere(caller)));
