/**
 * The account's security events: filters by type, user and time range (kept in the address, so a view can
 * be linked), pages with the API's cursor, each event's detail, and the CSV export of the same filters.
 */
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import CollectionPreferences from "@cloudscape-design/components/collection-preferences";
import DateRangePicker, { type DateRangePickerProps } from "@cloudscape-design/components/date-range-picker";
import FormField from "@cloudscape-design/components/form-field";
import Header from "@cloudscape-design/components/header";
import Input from "@cloudscape-design/components/input";
import Link from "@cloudscape-design/components/link";
import Pagination from "@cloudscape-design/components/pagination";
import Select, { type SelectProps } from "@cloudscape-design/components/select";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Table from "@cloudscape-design/components/table";
import { useMemo, useState } from "react";
import { EVENT_TYPES } from "../../../shared/constants";
import { apiPaths, client, ok } from "../api";
import { AuditTrailForbidden, describe, ErrorNotice, isForbidden } from "../components/ErrorNotice";
import { ExportAll } from "../components/ExportAll";
import { eventLabel, formatDateTime } from "../format";
import { follow, navigate, query, useLocation } from "../router";
import { usePage, useShell } from "../shell";
import { useApi } from "../useApi";

const DEFAULT_LIMIT = 50;
const ANY_TYPE: SelectProps.Option = { value: "", label: "Any type" };
const typeOptions: SelectProps.Option[] = [ANY_TYPE, ...EVENT_TYPES.map((t) => ({ value: t, label: eventLabel(t), description: t }))];

const RELATIVE: DateRangePickerProps.RelativeOption[] = [
  { key: "1-hour", amount: 1, unit: "hour", type: "relative" },
  { key: "24-hour", amount: 24, unit: "hour", type: "relative" },
  { key: "7-day", amount: 7, unit: "day", type: "relative" },
  { key: "30-day", amount: 30, unit: "day", type: "relative" },
];
const UNIT_MS: Partial<Record<DateRangePickerProps.TimeUnit, number>> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

interface Filters {
  readonly eventType: string;
  readonly userId: string;
  /** What the table shows in its User column: the actor's e-mail (the API compares it lower-cased). */
  readonly userEmail: string;
  readonly range: DateRangePickerProps.Value | null;
  readonly limit: number;
}

function readFilters(search: URLSearchParams): Filters {
  const relative = RELATIVE.find((r) => r.key === search.get("range"));
  const from = search.get("from");
  const to = search.get("to");
  const limit = Number(search.get("limit"));
  return {
    eventType: search.get("event_type") ?? "",
    userId: search.get("user_id") ?? "",
    userEmail: search.get("user_email") ?? "",
    range: relative ?? (from || to ? { type: "absolute", startDate: from ?? "", endDate: to ?? "" } : null),
    limit: Number.isInteger(limit) && limit >= 1 && limit <= 200 ? limit : DEFAULT_LIMIT,
  };
}

function writeFilters(f: Filters): string {
  const range = f.range;
  return query({
    event_type: f.eventType,
    user_id: f.userId,
    user_email: f.userEmail,
    range: range?.type === "relative" ? range.key : undefined,
    from: range?.type === "absolute" ? range.startDate : undefined,
    to: range?.type === "absolute" ? range.endDate : undefined,
    limit: f.limit === DEFAULT_LIMIT ? undefined : f.limit,
  });
}

/** The API's `from`/`to`. A relative range is fixed when it is chosen, so paging stays inside one window. */
function bounds(range: DateRangePickerProps.Value | null, now: number): { from?: string; to?: string } {
  if (!range) return {};
  if (range.type === "relative") return { from: new Date(now - range.amount * (UNIT_MS[range.unit] ?? 0)).toISOString() };
  const iso = (s: string) => (s ? new Date(s).toISOString() : undefined);
  return { from: iso(range.startDate), to: iso(range.endDate) };
}

export default function SecurityEvents() {
  usePage("Security events", [{ text: "Security events", href: "/security-events" }]);
  const { search } = useLocation();
  const { flash } = useShell();
  const filterKey = search.toString();
  const filters = readFilters(search);
  const { from, to } = useMemo(() => bounds(readFilters(new URLSearchParams(filterKey)).range, Date.now()), [filterKey]);
  const [paging, setPaging] = useState({ key: filterKey, cursors: [null] as (string | null)[], index: 0 });
  // New filters start again at the first page.
  const { cursors, index } = paging.key === filterKey ? paging : { cursors: [null], index: 0 };
  const [userDraft, setUserDraft] = useState(filters.userEmail);
  const [downloading, setDownloading] = useState(false);

  const apply = (change: Partial<Filters>) => navigate(`/security-events${writeFilters({ ...filters, ...change })}`);

  const params = {
    event_type: filters.eventType,
    user_id: filters.userId,
    user_email: filters.userEmail,
    from,
    to,
    limit: filters.limit,
    cursor: cursors[index] ?? undefined,
  };
  const { data, error, loading, reload } = useApi(`${apiPaths.securityEvents}${query(params)}`, async (signal) =>
    ok(await client.GET(apiPaths.securityEvents, { params: { query: params }, signal })),
  );
  const next = data?.meta.next_cursor ?? null;
  if (data && next && cursors.length === index + 1) setPaging({ key: filterKey, cursors: [...cursors, next], index });

  const download = async () => {
    setDownloading(true);
    try {
      const exported = await client.GET(`${apiPaths.securityEvents}/export`, {
        params: { query: { event_type: filters.eventType, user_email: filters.userEmail, from, to } },
        parseAs: "blob",
      });
      const res = exported.response;
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "security_events.csv";
      const url = URL.createObjectURL(ok(exported));
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      if (res.headers.get("x-export-truncated") === "true") {
        flash({ type: "warning", content: "The file holds only the newest 10,000 matching events: narrow the time range for the rest." });
      }
    } catch (err) {
      const d = describe(err);
      flash({ type: "error", header: `Download failed: ${d.header}`, content: d.text });
    } finally {
      setDownloading(false);
    }
  };

  if (isForbidden(error)) return <AuditTrailForbidden title="Security events" error={error} />;

  const selectedType = typeOptions.find((o) => o.value === filters.eventType) ?? ANY_TYPE;
  const filtered = filters.eventType !== "" || filters.userId !== "" || filters.userEmail !== "" || filters.range !== null;

  return (
    <SpaceBetween size="m">
      {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
      <Table
        data-testid="events-table"
        variant="full-page"
        items={data?.events ?? []}
        loading={loading && !data}
        loadingText="Loading security events"
        trackBy="id"
        wrapLines
        // On a phone (390 px) the table scrolls sideways with the time kept in view; no column is squeezed
        // below the width its words need.
        stickyColumns={{ first: 1 }}
        ariaLabels={{ tableLabel: "Security events" }}
        header={
          <Header
            variant="awsui-h1-sticky"
            description={
              filters.userId
                ? "Your account's audit trail, newest first. The CSV holds every user's events of the chosen type and time range."
                : "Your account's audit trail, newest first."
            }
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel="Refresh" onClick={reload} />
                <Button iconName="download" loading={downloading} onClick={() => void download()}>
                  Download CSV
                </Button>
                <ExportAll filters={{ event_type: filters.eventType, user_id: filters.userId, from, to }} />
              </SpaceBetween>
            }
          >
            Security events
          </Header>
        }
        filter={
          <SpaceBetween direction="horizontal" size="s" alignItems="end">
            <FormField label="Event type">
              <Select
                selectedOption={selectedType}
                options={typeOptions}
                onChange={({ detail }) => apply({ eventType: detail.selectedOption.value ?? "" })}
                filteringType="auto"
              />
            </FormField>
            <FormField label="User e-mail" description={filters.userId ? `And user ID ${filters.userId}` : undefined}>
              <Input
                type="search"
                inputMode="email"
                value={userDraft}
                placeholder="Any user"
                onChange={({ detail }) => setUserDraft(detail.value)}
                onBlur={() => userDraft.trim() !== filters.userEmail && apply({ userEmail: userDraft.trim() })}
                onKeyDown={({ detail }) => detail.key === "Enter" && apply({ userEmail: userDraft.trim() })}
              />
            </FormField>
            <FormField label="Time range">
              <DateRangePicker
                value={filters.range}
                onChange={({ detail }) => apply({ range: detail.value })}
                relativeOptions={RELATIVE}
                isValidRange={(r) => {
                  if (r?.type === "absolute" && r.startDate && r.endDate && new Date(r.startDate) > new Date(r.endDate)) {
                    return { valid: false, errorMessage: "The range ends before it starts." };
                  }
                  return { valid: true };
                }}
                placeholder="Any time"
                absoluteFormat="long-localized"
              />
            </FormField>
            {filtered && (
              <Button
                onClick={() => {
                  setUserDraft("");
                  navigate(`/security-events${query({ limit: filters.limit === DEFAULT_LIMIT ? undefined : filters.limit })}`);
                }}
              >
                Clear filters
              </Button>
            )}
          </SpaceBetween>
        }
        pagination={
          <Pagination
            currentPageIndex={index + 1}
            pagesCount={cursors.length}
            openEnd={next !== null}
            onChange={({ detail }) => setPaging({ key: filterKey, cursors, index: detail.currentPageIndex - 1 })}
          />
        }
        preferences={
          <CollectionPreferences
            title="Preferences"
            confirmLabel="Confirm"
            cancelLabel="Cancel"
            preferences={{ pageSize: filters.limit }}
            pageSizePreference={{
              title: "Events per page",
              options: [10, 25, 50, 100, 200].map((n) => ({ value: n, label: `${n} events` })),
            }}
            onConfirm={({ detail }) => apply({ limit: detail.pageSize ?? DEFAULT_LIMIT })}
          />
        }
        empty={
          <Box textAlign="center" color="inherit">
            <b>{filtered ? "No events match these filters" : "No security events yet"}</b>
          </Box>
        }
        columnDefinitions={[
          {
            id: "created_at",
            header: "Time",
            minWidth: 190,
            cell: (e) => (
              <Link
                href={`/security-events/${encodeURIComponent(e.id)}`}
                onFollow={follow}
                ariaLabel={`${eventLabel(e.event_type)} at ${formatDateTime(e.created_at)}: details`}
              >
                {formatDateTime(e.created_at)}
              </Link>
            ),
          },
          { id: "event_type", header: "Event type", isRowHeader: true, minWidth: 170, cell: (e) => eventLabel(e.event_type) },
          // An address never breaks inside itself: on a phone the table scrolls sideways instead.
          {
            id: "user_email",
            header: "User",
            minWidth: 200,
            cell: (e) => <span style={{ whiteSpace: "nowrap" }}>{e.user_email ?? "—"}</span>,
          },
          {
            id: "ip_address",
            header: "IP address",
            minWidth: 130,
            cell: (e) => <span style={{ whiteSpace: "nowrap" }}>{e.ip_address}</span>,
          },
          { id: "description", header: "Description", minWidth: 240, cell: (e) => e.description },
        ]}
      />
    </SpaceBetween>
  );
}
