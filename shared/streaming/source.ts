/** The `source` of every event this service puts on its EventBridge bus (docs/events-out.md). */
export const EVENT_SOURCE = "institution-admin";
