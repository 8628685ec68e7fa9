/** The `source` of every event this service puts on its EventBridge bus (DESIGN.md §11). */
export const EVENT_SOURCE = "institution-admin";
