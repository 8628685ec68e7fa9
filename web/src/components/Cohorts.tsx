/** An institution's cohorts; its super admin adds them (a cohort also keeps the institution from being deleted). */
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import { useState } from "react";
import { client, ok } from "../api";
import { formatDateTime } from "../format";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";
import { FormDialog } from "./Dialog";
import { ErrorNotice } from "./ErrorNotice";

export function Cohorts({ institutionId, owner }: { institutionId: string; owner: boolean }) {
  const params = { path: { id: institutionId } };
  const { data, error, loading, reload } = useApi(`/api/v1/institutions/${institutionId}/cohorts`, async (signal) =>
    ok(await client.GET("/api/v1/institutions/{id}/cohorts", { params, signal })),
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
      const res = ok(await client.POST("/api/v1/institutions/{id}/cohorts", { params, body: { cohort: { name } } }));
      flash({ type: "success", content: `Cohort ${res.cohort.name} created` });
      close();
      reload();
    });

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        items={data?.cohorts ?? []}
        loading={loading && !data}
        loadingText="Loading cohorts"
        trackBy="id"
        ariaLabels={{ tableLabel: "Cohorts" }}
        header={
          <Header
            variant="h2"
            counter={data ? `(${data.cohorts.length})` : undefined}
            actions={
              <Button disabled={!owner} disabledReason="Only the institution's super admin can add cohorts." onClick={() => setOpen(true)}>
                Create cohort
              </Button>
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
          <Input value={name} onChange={({ detail }) => setName(detail.value)} autoFocus />
        </FormField>
      </FormDialog>
    </SpaceBetween>
  );
}
