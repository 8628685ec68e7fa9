/** An institution's cohorts; its super admin adds them (a cohort also keeps the institution from being deleted). */
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import Form from "@cloudscape-design/components/form";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import Modal from "@cloudscape-design/components/modal";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import { type FormEvent, useState } from "react";
import { ApiError, api, type Cohort } from "../api";
import { focusFirstInvalid } from "../fieldErrors";
import { formatDateTime } from "../format";
import { useShell } from "../shell";
import { useApi } from "../useApi";
import { describe, ErrorNotice } from "./ErrorNotice";

export function Cohorts({ institutionId, owner }: { institutionId: string; owner: boolean }) {
  const path = `/api/v1/institutions/${encodeURIComponent(institutionId)}/cohorts`;
  const { data, error, loading, reload } = useApi<{ cohorts: Cohort[] }>(path);
  const { flash } = useShell();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOpen(false);
    setName("");
    setNameError(undefined);
    setFormError(undefined);
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setNameError(undefined);
    setFormError(undefined);
    try {
      const res = await api<{ cohort: Cohort }>("POST", path, { body: { cohort: { name } } });
      flash({ type: "success", content: `Cohort ${res.cohort.name} created` });
      close();
      reload();
    } catch (err) {
      if (err instanceof ApiError && err.status === 422 && err.errors.length > 0) {
        setNameError(err.errors.join(" "));
        focusFirstInvalid();
      } else {
        const d = describe(err);
        setFormError(`${d.header}: ${d.text}`);
      }
    } finally {
      setBusy(false);
    }
  };

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
      <Modal visible={open} onDismiss={close} header="Create cohort" closeAriaLabel="Close dialog">
        <form onSubmit={(e) => void create(e)} noValidate>
          <Form
            errorText={formError}
            errorIconAriaLabel="Error"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" formAction="none" onClick={close}>
                  Cancel
                </Button>
                <Button variant="primary" loading={busy} formAction="submit">
                  Create cohort
                </Button>
              </SpaceBetween>
            }
          >
            <FormField label="Name" errorText={nameError}>
              <Input value={name} onChange={({ detail }) => setName(detail.value)} autoFocus />
            </FormField>
          </Form>
        </form>
      </Modal>
    </SpaceBetween>
  );
}
