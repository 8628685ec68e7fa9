/**
 * The account's webhooks (docs/events-out.md), for cohort super admins: add one (its signing secret shown once,
 * here, and kept nowhere but in this page's memory), delete one, and the recent deliveries of the one
 * selected (kept in the address, so a view can be linked).
 */
import Alert from "@cloudscape-design/components/alert";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import CopyToClipboard from "@cloudscape-design/components/copy-to-clipboard";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import StatusIndicator, { type StatusIndicatorProps } from "@cloudscape-design/components/status-indicator";
import Table from "@cloudscape-design/components/table";
import { useCallback, useEffect, useState } from "react";
import type { components } from "../../../shared/openapi/api-types";
import { ApiError, apiPaths, client, ok } from "../api";
import { Dialog, DialogFooter, FormDialog, Refusal } from "../components/Dialog";
import { describe, ErrorNotice, isForbidden, SuperAdminOnly } from "../components/ErrorNotice";
import { eventLabel, formatDateTime, formatShort } from "../format";
import { follow, navigate, query, useLocation } from "../router";
import { usePage, useShell } from "../shell";
import { useApi } from "../useApi";
import { useSubmit } from "../useSubmit";

type Webhook = components["schemas"]["Webhook"];
type Created = components["schemas"]["WebhookCreated"]["webhook"];
type Delivery = components["schemas"]["WebhookDelivery"];

const HOOKS = apiPaths.webhooks;
/** While a delivery waits for its retry, the list is read again this often. */
const PENDING_REFRESH_MS = 10_000;

const DELIVERY_STATUS: Record<Delivery["status"], { type: StatusIndicatorProps.Type; text: string }> = {
  delivered: { type: "success", text: "Delivered" },
  pending: { type: "pending", text: "Retrying" },
  failed: { type: "error", text: "Failed" },
};

/**
 * A webhook's state in one word. `retrying`: its deliveries panel shows a delivery waiting for a retry, which
 * the list read earlier may not know yet; the row never says "Enabled" while deliveries are retrying.
 */
function webhookStatus(w: Webhook, retrying: boolean): { type: StatusIndicatorProps.Type; text: string } {
  if (w.status === "disabled") return { type: "stopped", text: "Disabled" };
  if (w.failing_since) return { type: "warning", text: "Failing" };
  if (retrying) return { type: "pending", text: "Retrying" };
  return { type: "success", text: "Enabled" };
}

export default function Webhooks() {
  usePage("Webhooks", [{ text: "Webhooks", href: "/webhooks" }]);
  const { search } = useLocation();
  const { flash } = useShell();
  const { data, error, loading, reload } = useApi(HOOKS, async (signal) => ok(await client.GET(HOOKS, { signal })));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Webhook>();
  // The secret of the webhook just added: in this page's state only, so it is gone with the page.
  const [created, setCreated] = useState<Created>();

  const selectedId = search.get("webhook");
  // The selected webhook, while its deliveries panel shows one waiting for a retry.
  const [retryingId, setRetryingId] = useState<string>();
  const onRetrying = useCallback(
    (id: string, retrying: boolean) => setRetryingId((current) => (retrying ? id : current === id ? undefined : current)),
    [],
  );
  const selected = data?.webhooks.find((w) => w.id === selectedId);
  const select = (id: string | undefined) => navigate(`/webhooks${query({ webhook: id })}`, { replace: true });

  if (isForbidden(error)) {
    return (
      <SuperAdminOnly title="Webhooks" error={error}>
        Managing webhooks needs the cohort-super-admin status, which an operator grants.
      </SuperAdminOnly>
    );
  }

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      {created && <SecretOnce webhook={created} onDone={() => setCreated(undefined)} />}
      <Table
        data-testid="webhooks-table"
        variant="full-page"
        items={data?.webhooks ?? []}
        loading={loading && !data}
        loadingText="Loading webhooks"
        trackBy="id"
        selectionType="single"
        selectedItems={selected ? [selected] : []}
        onSelectionChange={({ detail }) => select(detail.selectedItems[0]?.id)}
        wrapLines
        ariaLabels={{
          tableLabel: "Webhooks",
          selectionGroupLabel: "Webhook selection",
          itemSelectionLabel: (_, w) => `Select the webhook to ${w.url}`,
          allItemsSelectionLabel: () => "Select all",
        }}
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={data ? `(${data.webhooks.length})` : undefined}
            description="Every event recorded in your account is sent to each enabled endpoint, signed per Standard Webhooks. At most 5 per account."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel="Refresh webhooks" onClick={reload} />
                <Button disabled={!selected} disabledReason="Select a webhook first." onClick={() => setDeleting(selected)}>
                  Delete
                </Button>
                <Button variant="primary" onClick={() => setAdding(true)}>
                  Add webhook
                </Button>
              </SpaceBetween>
            }
          >
            Webhooks
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            <SpaceBetween size="xs">
              <b>No webhooks</b>
              <Box variant="p" color="inherit">
                Add an https endpoint to receive your account's security events as they are recorded.
              </Box>
              <Button onClick={() => setAdding(true)}>Add webhook</Button>
            </SpaceBetween>
          </Box>
        }
        columnDefinitions={[
          { id: "url", header: "Endpoint URL", isRowHeader: true, cell: (w) => <Box variant="code">{w.url}</Box> },
          {
            id: "status",
            header: "Status",
            minWidth: 110,
            cell: (w) => {
              const s = webhookStatus(w, w.id === retryingId);
              return (
                <StatusIndicator type={s.type} wrapText={false}>
                  {s.text}
                </StatusIndicator>
              );
            },
          },
          { id: "created_at", header: "Created", minWidth: 160, cell: (w) => formatShort(w.created_at) },
          { id: "failing_since", header: "Failing since", minWidth: 160, cell: (w) => formatShort(w.failing_since) },
          { id: "disabled_at", header: "Disabled", minWidth: 160, cell: (w) => formatShort(w.disabled_at) },
        ]}
      />
      {selected ? (
        <Deliveries webhook={selected} key={selected.id} onRetrying={onRetrying} />
      ) : (
        <Box color="text-body-secondary" textAlign="center" padding="l">
          Select a webhook to see its recent deliveries.
        </Box>
      )}
      <AddWebhook
        visible={adding}
        onClose={() => setAdding(false)}
        onCreated={(webhook) => {
          setAdding(false);
          setCreated(webhook);
          reload();
        }}
      />
      <DeleteWebhook
        webhook={deleting}
        onClose={() => setDeleting(undefined)}
        onDeleted={(message) => {
          if (created?.id === deleting?.id) setCreated(undefined);
          setDeleting(undefined);
          flash({ type: "success", content: message });
          select(undefined);
          reload();
        }}
      />
    </SpaceBetween>
  );
}

/** The new webhook's signing secret, this once: with a copy button, until the person says it is stored. */
function SecretOnce({ webhook, onDone }: { webhook: Created; onDone: () => void }) {
  return (
    <Alert
      type="success"
      header="Webhook added: copy its signing secret now"
      data-testid="webhook-secret"
      action={<Button onClick={onDone}>I have stored the secret</Button>}
    >
      <SpaceBetween size="s">
        <Box variant="p">
          Deliveries to <Box variant="code">{webhook.url}</Box> are signed with this secret; your receiver verifies their{" "}
          <Box variant="code">webhook-signature</Box> header with it. <strong>You will not see it again</strong>: it is not stored in this
          browser, and the API never shows it again. If it is lost, delete the webhook and add a new one.
        </Box>
        <CopyToClipboard
          variant="inline"
          textToCopy={webhook.secret}
          copyButtonAriaLabel="Copy the signing secret"
          copySuccessText="Secret copied"
          copyErrorText="The secret could not be copied: select it and copy it by hand"
        />
      </SpaceBetween>
    </Alert>
  );
}

/** The newest deliveries of one webhook (the API's 50), read again while one waits for a retry. */
function Deliveries({ webhook, onRetrying }: { webhook: Webhook; onRetrying: (id: string, retrying: boolean) => void }) {
  const path = `${HOOKS}/${webhook.id}/deliveries`;
  const { data, error, loading, reload } = useApi(path, async (signal) =>
    ok(await client.GET(`${HOOKS}/{id}/deliveries`, { params: { path: { id: webhook.id } }, signal })),
  );
  const pending = data?.deliveries.some((d) => d.status === "pending") ?? false;
  const retrying = data?.deliveries.some((d) => d.status === "pending" && d.attempts > 0) ?? false;
  useEffect(() => onRetrying(webhook.id, retrying), [webhook.id, retrying, onRetrying]);
  useEffect(() => {
    if (!pending) return;
    const timer = window.setInterval(reload, PENDING_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [pending, reload]);

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        data-testid="deliveries-table"
        items={data?.deliveries ?? []}
        loading={loading && !data}
        loadingText="Loading deliveries"
        trackBy="event_id"
        wrapLines
        ariaLabels={{ tableLabel: `Recent deliveries to ${webhook.url}` }}
        header={
          <Header
            variant="h2"
            counter={data ? `(${data.deliveries.length})` : undefined}
            description={
              <>
                The newest deliveries to <Box variant="code">{webhook.url}</Box>, one per event. Failed attempts are retried with backoff
                for 24 hours.
              </>
            }
            actions={
              <Button iconName="refresh" loading={loading && data !== undefined} onClick={reload}>
                Refresh deliveries
              </Button>
            }
          >
            Recent deliveries
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>No deliveries yet</b>
            <Box variant="p" color="inherit">
              The next event recorded in your account is delivered here.
            </Box>
          </Box>
        }
        columnDefinitions={[
          {
            id: "event",
            header: "Event (webhook-id)",
            isRowHeader: true,
            minWidth: 200,
            // The event id is the deliveries' `webhook-id`: what a receiver logs and drops duplicates by.
            cell: (d) => (
              <div>
                <Link
                  href={`/security-events/${encodeURIComponent(d.event_id)}`}
                  onFollow={follow}
                  ariaLabel={`${eventLabel(d.event_type)}: the event`}
                >
                  {eventLabel(d.event_type)}
                </Link>
                <Box variant="small" display="block" color="text-body-secondary">
                  {d.event_id}
                </Box>
              </div>
            ),
          },
          {
            id: "status",
            header: "Status",
            minWidth: 130,
            cell: (d) => {
              const s = DELIVERY_STATUS[d.status];
              return (
                <StatusIndicator type={s.type} wrapText={false}>
                  {s.text}
                </StatusIndicator>
              );
            },
          },
          { id: "attempts", header: "Attempts", minWidth: 100, cell: (d) => d.attempts },
          {
            id: "response",
            header: "Last answer",
            minWidth: 120,
            cell: (d) => (d.last_status_code !== null ? `HTTP ${d.last_status_code}` : (d.last_error ?? "—")),
          },
          { id: "last_attempt_at", header: "Last attempt", minWidth: 160, cell: (d) => formatDateTime(d.last_attempt_at) },
          { id: "next_attempt_at", header: "Next attempt", minWidth: 160, cell: (d) => formatDateTime(d.next_attempt_at) },
        ]}
      />
    </SpaceBetween>
  );
}

/** The contract's 429 for the per-account bound says so ("At most 5 webhooks per account"): waiting does not help, deleting does. */
const isAccountFull = (err: unknown): boolean => err instanceof ApiError && err.status === 429 && /webhooks per account/i.test(err.message);

function AddWebhook(props: { visible: boolean; onClose: () => void; onCreated: (webhook: Created) => void }) {
  const [url, setUrl] = useState("");
  const { busy, fieldErrors, error, submit, reset } = useSubmit({
    // Every validation message of a webhook is about its URL.
    fields: "url",
    explain: (err) =>
      isAccountFull(err)
        ? {
            header: "Your account has all the webhooks it may have",
            text: `${(err as ApiError).message}. Delete one you no longer need first.`,
          }
        : describe(err),
  });
  const close = () => {
    setUrl("");
    reset();
    props.onClose();
  };
  const add = () =>
    submit(async () => {
      const { webhook } = ok(await client.POST(HOOKS, { body: { webhook: { url: url.trim() } } }));
      setUrl("");
      props.onCreated(webhook);
    });
  return (
    <FormDialog visible={props.visible} header="Add webhook" action="Add webhook" busy={busy} onClose={close} onSubmit={() => void add()}>
      <SpaceBetween size="m">
        <FormField
          label="Endpoint URL"
          description="An https URL. It must answer 2xx within 5 seconds; its signing secret is shown once, after it is added."
          errorText={fieldErrors.url}
        >
          <Input
            type="url"
            inputMode="url"
            value={url}
            placeholder="https://siem.example.com/webhooks"
            onChange={({ detail }) => setUrl(detail.value)}
          />
        </FormField>
        <Refusal error={error} />
      </SpaceBetween>
    </FormDialog>
  );
}

function DeleteWebhook(props: { webhook: Webhook | undefined; onClose: () => void; onDeleted: (message: string) => void }) {
  const { busy, error, submit, reset } = useSubmit();
  const close = () => {
    reset();
    props.onClose();
  };
  const remove = () =>
    submit(async () => {
      if (!props.webhook) return;
      const { message } = ok(await client.DELETE(`${HOOKS}/{id}`, { params: { path: { id: props.webhook.id } } }));
      reset();
      props.onDeleted(message);
    });
  return (
    <Dialog
      visible={props.webhook !== undefined}
      onDismiss={close}
      header="Delete webhook"
      footer={<DialogFooter action="Delete" busy={busy} onCancel={close} onAction={() => void remove()} />}
    >
      <SpaceBetween size="m">
        <Box variant="p">
          Delete the webhook to <Box variant="code">{props.webhook?.url}</Box>? Nothing more is sent to it, pending retries included. The
          deletion is recorded in the security events.
        </Box>
        <Refusal error={error} />
      </SpaceBetween>
    </Dialog>
  );
}
