/** The machines' API's `$default` route: a key on a route no scope opens (shared/api-keys/refusal.ts). */
export { refused as handler } from "../../shared/api-keys/refusal.js";
