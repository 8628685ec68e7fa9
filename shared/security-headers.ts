/**
 * The headers every answer carries (DESIGN.md §3): the API's, the local gateway's own, the API document's and
 * the local console server's. Nothing is kept in a shared cache (the audit trail must not sit in one), and no
 * browser guesses a type. No imports: the local servers load it too.
 */
export const SECURITY_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;
