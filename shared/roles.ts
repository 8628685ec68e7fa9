/** The two roles an access record or invitation can carry. */
export const ROLES = ["cohort_super_admin", "cohort_admin"] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === "string" && (ROLES as readonly string[]).includes(value);
