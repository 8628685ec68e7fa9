/**
 * An institution's cohorts; its super admin adds and deletes them (a cohort keeps the institution from being
 * deleted, so the last one deleted frees it).
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import { useState } from "react";
import { apiPaths, type Cohort, client, ok } from "../api";
import { formatDateTime } from "../format";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";
import { Dialog, DialogFooter, FormDialog } from "./Dialog";
import { ErrorNotice } from "./ErrorNotice";

const NOT_OWNER = "Only the institution's super admin can change cohorts.";

export function Cohorts({ institutionId, owner }: { institutionId: string; owner: boolean }) {
  const params = { path: { id: institutionId } };
  const { data, error, loading, reload } = useApi(`${apiPaths.institutions}/${institutionId}/cohorts`, async (signal) =>
    ok(await client.GET(`${apiPaths.institutions}/{id}/cohorts`, { params, signal })),
  );
  const { flash } = useShell();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  // Every cohort validation message is about its name.
  const { busy, fieldErrors, error: formError, submit, reset } = useSubmit({ fields: "name" });

  const close = () => {
    setOpen(false);
    setName("");
    reset();
  };
  const create = () =>
    submit(async () => {
      const res = ok(await client.POST(`${apiPaths.institutions}/{id}/cohorts`, { params, body: { cohort: { name } } }));
      flash({ type: "success", content: `Cohort ${res.cohort.name} created` });
      close();
      reload();
    });

  const [selected, setSelected] = useState<Cohort>();
  const [deleting, setDeleting] = useState<Cohort>();
  const removal = useSubmit();
  const closeDelete = () => {
    setDeleting(undefined);
    removal.reset();
  };
  const remove = () =>
    removal.submit(async () => {
      if (!deleting) return;
      const { message } = ok(
        await client.DELETE(`${apiPaths.institutions}/{id}/cohorts/{cohort_id}`, {
          params: { path: { id: institutionId, cohort_id: deleting.id } },
        }),
      );
      flash({ type: "success", content: message });
      setSelected(undefined);
      closeDelete();
      reload();
    });

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        data-testid="cohorts-table"
        selectionType={owner ? "single" : undefined}
        selectedItems={selected ? [selected] : []}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems[0])}
        items={data?.cohorts ?? []}
        loading={loading && !data}
        loadingText="Loading cohorts"
        trackBy="id"
        ariaLabels={{
          tableLabel: "Cohorts",
          selectionGroupLabel: "Cohort selection",
          itemSelectionLabel: (_, c) => `Select ${c.name}`,
          allItemsSelectionLabel: () => "Select all",
        }}
        header={
          <Header
            variant="h2"
            counter={data ? `(${data.cohorts.length})` : undefined}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  disabled={!owner || !selected}
                  disabledReason={owner ? "Select a cohort to delete." : NOT_OWNER}
                  onClick={() => setDeleting(selected)}
                >
                  Delete
                </Button>
                <Button disabled={!owner} disabledReason={NOT_OWNER} onClick={() => setOpen(true)}>
                  Create cohort
                </Button>
              </SpaceBetween>
            }
          >
            Cohorts
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>No cohorts</b>
          </Box>
        }
        columnDefinitions={[
          { id: "name", header: "Name", isRowHeader: true, cell: (c) => c.name },
          { id: "created_at", header: "Created", cell: (c) => formatDateTime(c.created_at) },
        ]}
      />
      <Dialog
        visible={deleting !== undefined}
        onDismiss={closeDelete}
        header="Delete cohort"
        footer={<DialogFooter action="Delete" busy={removal.busy} onCancel={closeDelete} onAction={() => void remove()} />}
      >
        <SpaceBetween size="m">
          <Box variant="p">
            Delete the cohort <strong>{deleting?.name}</strong>? This cannot be undone. Once an institution has no cohorts, the
            institution's super admin can delete it.
          </Box>
          {removal.error && (
            <Alert type="error" header={removal.error.header}>
              {removal.error.text}
            </Alert>
          )}
        </SpaceBetween>
      </Dialog>
      <FormDialog
        visible={open}
        header="Create cohort"
        action="Create cohort"
        busy={busy}
        onClose={close}
        onSubmit={() => void create()}
        errorText={formError && `${formError.header}: ${formError.text}`}
      >
        <FormField label="Name" errorText={fieldErrors.name}>
          <Input value={name} onChange={({ detail }) => setName(detail.value)} />
        </FormField>
      </FormDialog>
    </SpaceBetween>
  );
}
