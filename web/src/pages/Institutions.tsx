/** The institutions the caller can see, with the caller's role in each; create, edit and delete from here. */
import { useCollection } from "@cloudscape-design/collection-hooks";
import Badge from "@cloudscape-design/components/badge";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Header from "@cloudscape-design/components/header";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import TextFilter from "@cloudscape-design/components/text-filter";
import { useEffect, useState } from "react";
import { apiPaths, client, type InstitutionSummary, ok } from "../api";
import { useSession } from "../auth/session";
import { DeleteInstitution } from "../components/DeleteInstitution";
import { ErrorNotice } from "../components/ErrorNotice";
import { formatDateTime, roleLabel } from "../format";
import { EmailText, useNarrow } from "../narrow";
import { follow, navigate } from "../router";
import { usePage } from "../shell";
import { STATUS_NEEDED } from "../terms";
import { useApi } from "../useApi";

const NOT_OWNER = "Only the institution's super admin can do this.";

/** Your role in an institution, and whether you are the institution's super admin (beneath, when `stacked`). */
function YourRole({ institution, stacked = false }: { institution: InstitutionSummary; stacked?: boolean }) {
  const owner = institution.is_super_admin && <Badge color="blue">Institution's super admin</Badge>;
  return (
    <SpaceBetween size="xxxs" direction={stacked ? "vertical" : "horizontal"}>
      <span style={{ whiteSpace: "nowrap" }}>{roleLabel(institution.role)}</span>
      {owner}
    </SpaceBetween>
  );
}

export default function Institutions() {
  usePage("Institutions", [{ text: "Institutions", href: "/institutions" }]);
  const narrow = useNarrow();
  const session = useSession();
  const { data, error, loading, reload } = useApi(apiPaths.institutions, async (signal) =>
    ok(await client.GET(apiPaths.institutions, { signal })),
  );
  const [deleting, setDeleting] = useState<InstitutionSummary>();
  const canCreate = session?.superAdmin === true;

  const { items, collectionProps, filterProps, filteredItemsCount } = useCollection(data?.institutions ?? [], {
    filtering: {
      fields: ["name", "registration_number", "contact_email"],
      empty: (
        <Box textAlign="center" color="inherit">
          <SpaceBetween size="xs">
            <b>No institutions</b>
            <Box variant="p" color="inherit">
              {canCreate
                ? "Create the first one, or accept an invitation to someone else's."
                : "You administer no institution yet. An invitation to one gives you access."}
            </Box>
            {canCreate && <Button onClick={() => navigate("/institutions/new")}>Create institution</Button>}
          </SpaceBetween>
        </Box>
      ),
      noMatch: (
        <Box textAlign="center" color="inherit">
          <b>No match</b>
        </Box>
      ),
    },
    sorting: { defaultState: { sortingColumn: { sortingField: "name" } } },
    selection: { keepSelection: false, trackBy: "id" },
  });

  useEffect(() => {
    // The bench (test/bench/console.ts) measures the first page up to here: the list is on screen.
    if (data) performance.mark("console:institutions-rendered");
  }, [data]);

  const selected = collectionProps.selectedItems?.[0];
  const ownsSelected = selected?.is_super_admin === true;

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        {...collectionProps}
        data-testid="institutions-table"
        variant="full-page"
        selectionType="single"
        trackBy="id"
        loading={loading && !data}
        loadingText="Loading institutions"
        items={items}
        ariaLabels={{
          selectionGroupLabel: "Institution selection",
          itemSelectionLabel: (_, item) => `Select ${item.name}`,
          allItemsSelectionLabel: () => "Select all",
          tableLabel: "Institutions",
        }}
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={data ? `(${data.institutions.length})` : undefined}
            description="Institutions you administer, and your role in each."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  disabled={!ownsSelected}
                  disabledReason={selected ? NOT_OWNER : "Select an institution first."}
                  onClick={() => selected && navigate(`/institutions/${encodeURIComponent(selected.id)}/edit`)}
                >
                  Edit
                </Button>
                <Button
                  disabled={!ownsSelected}
                  disabledReason={selected ? NOT_OWNER : "Select an institution first."}
                  onClick={() => setDeleting(selected)}
                >
                  Delete
                </Button>
                <Button
                  variant="primary"
                  disabled={!canCreate}
                  disabledReason={`Creating an institution needs ${STATUS_NEEDED}.`}
                  onClick={() => navigate("/institutions/new")}
                >
                  Create institution
                </Button>
              </SpaceBetween>
            }
          >
            Institutions
          </Header>
        }
        filter={
          <TextFilter
            {...filterProps}
            filteringPlaceholder="Find institutions"
            filteringAriaLabel="Find institutions"
            countText={`${filteredItemsCount ?? 0} matches`}
          />
        }
        // On a phone the first column, kept in view, holds the name and your role; the rest scrolls sideways.
        wrapLines={narrow}
        stickyColumns={narrow ? { first: 1 } : undefined}
        columnDefinitions={[
          {
            id: "name",
            header: narrow ? "Institution" : "Name",
            sortingField: "name",
            isRowHeader: true,
            minWidth: narrow ? 150 : undefined,
            cell: (i) =>
              narrow ? (
                <SpaceBetween size="xxxs">
                  <Link href={`/institutions/${encodeURIComponent(i.id)}`} onFollow={follow}>
                    {i.name}
                  </Link>
                  <Box fontSize="body-s" data-testid="institution-role">
                    <YourRole institution={i} stacked />
                  </Box>
                </SpaceBetween>
              ) : (
                <Link href={`/institutions/${encodeURIComponent(i.id)}`} onFollow={follow}>
                  {i.name}
                </Link>
              ),
          },
          ...(narrow
            ? []
            : [{ id: "role", header: "Your role", sortingField: "role", cell: (i: InstitutionSummary) => <YourRole institution={i} /> }]),
          {
            id: "registration_number",
            header: "Registration number",
            sortingField: "registration_number",
            // An identifier: on one line, never broken at its hyphens.
            cell: (i) => <span style={{ whiteSpace: "nowrap" }}>{i.registration_number ?? "—"}</span>,
          },
          {
            id: "contact_email",
            header: "Contact e-mail",
            cell: (i) => (i.contact_email ? <EmailText address={i.contact_email} nowrap /> : "—"),
          },
          { id: "created_at", header: "Created", sortingField: "created_at", cell: (i) => formatDateTime(i.created_at) },
        ]}
      />
      <DeleteInstitution
        institution={deleting}
        onClose={() => setDeleting(undefined)}
        onDeleted={() => {
          setDeleting(undefined);
          reload();
        }}
      />
    </SpaceBetween>
  );
}
