/**
 * "Super admin" means three different things here (web/src/terms.ts); this says which is which, wherever a
 * person meets the words: on an institution's page, on Your account, and in the invite dialog.
 */
import Box from "@cloudscape-design/components/box";
import ExpandableSection from "@cloudscape-design/components/expandable-section";
import Popover from "@cloudscape-design/components/popover";
import SpaceBetween from "@cloudscape-design/components/space-between";

/** What each institution role may do, as the invite dialog says it. */
export const ROLE_POWERS = {
  cohort_admin: "Sees the institution, its cohorts, administrators and invitations.",
  cohort_super_admin:
    "Also invites administrators and revokes or resends invitations, once they also have the cohort-super-admin status (an operator grants it).",
} as const;

export function RolesExplained() {
  return (
    <SpaceBetween size="s">
      <div>
        <Box variant="h4">1. The cohort-super-admin status (of a person)</Box>
        <Box variant="p">
          A group of the user pool that an operator grants. It lets a person create institutions and read their account's security events,
          alerts and webhooks. Nobody gets it by invitation or by joining.
        </Box>
      </div>
      <div>
        <Box variant="h4">2. A role in an institution</Box>
        <Box variant="p">
          <strong>Cohort admin</strong> or <strong>Cohort super admin</strong>, given by invitation. {ROLE_POWERS.cohort_admin} Managing
          invitations takes both the role Cohort super admin and the cohort-super-admin status.
        </Box>
      </div>
      <div>
        <Box variant="h4">3. The institution's super admin</Box>
        <Box variant="p">
          The one person who owns an institution: they created it or had it transferred to them. Only they edit, delete or transfer it, add
          cohorts, and change or remove administrators. Holding the role Cohort super admin does not make someone the institution's super
          admin.
        </Box>
      </div>
    </SpaceBetween>
  );
}

/** A link-like trigger that opens the explanation in a popover. */
export function RolesPopover() {
  return (
    <Box variant="span" data-testid="roles-help">
      <Popover header="What “super admin” means here" size="large" position="bottom" triggerType="text" content={<RolesExplained />}>
        Roles explained
      </Popover>
    </Box>
  );
}

/** The explanation folded into a page (Your account). */
export function RolesSection() {
  return (
    <ExpandableSection variant="container" headerText="What “super admin” means here">
      <RolesExplained />
    </ExpandableSection>
  );
}
