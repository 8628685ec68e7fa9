/**
 * "Export all": a full export of the page's filters to a file (docs/events-out.md), any size. Starts the export,
 * shows its progress (rows written so far) while the worker runs, then the download link (valid 15 minutes;
 * a new one is fetched when asked again).
 */
import ButtonDropdown from "@cloudscape-design/components/button-dropdown";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import StatusIndicator from "@cloudscape-design/components/status-indicator";
import { useEffect, useState } from "react";
import type { components } from "../../../shared/openapi/api-types";
import { apiPaths, client, ok } from "../api";
import { describe } from "./ErrorNotice";

type Export = components["schemas"]["Export"];

const EXPORTS = `${apiPaths.securityEvents}/exports` as const;
const POLL_MS = 1000;

export interface ExportFilters {
  readonly event_type?: string | undefined;
  readonly user_id?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

export function ExportAll({ filters }: { filters: ExportFilters }) {
  const [current, setCurrent] = useState<Export>();
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string>();

  // Polls a running export until it ends.
  useEffect(() => {
    if (current?.status !== "running") return;
    const timer = setTimeout(async () => {
      try {
        const shown = ok(await client.GET(`${EXPORTS}/{id}`, { params: { path: { id: current.id } } }));
        setCurrent(shown.export);
      } catch (err) {
        setProblem(describe(err).header);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [current]);

  const start = async (format: "csv" | "jsonl") => {
    setStarting(true);
    setProblem(undefined);
    try {
      const given = (v: string | undefined) => (v === undefined || v === "" ? undefined : v);
      const body = {
        format,
        event_type: given(filters.event_type),
        user_id: given(filters.user_id),
        from: given(filters.from),
        to: given(filters.to),
      };
      setCurrent(ok(await client.POST(EXPORTS, { body })).export);
    } catch (err) {
      const d = describe(err);
      setProblem(`${d.header}${d.text ? `: ${d.text}` : ""}`);
    } finally {
      setStarting(false);
    }
  };

  return (
    <SpaceBetween direction="horizontal" size="xs" alignItems="center">
      {problem !== undefined && <StatusIndicator type="error">{problem}</StatusIndicator>}
      {current?.status === "running" && (
        <StatusIndicator type="in-progress" data-testid="export-progress">
          Exporting… {current.row_count.toLocaleString()} rows
        </StatusIndicator>
      )}
      {current?.status === "failed" && <StatusIndicator type="error">Export failed: {current.reason}</StatusIndicator>}
      {current?.status === "succeeded" && current.download_url && (
        <StatusIndicator type="success">
          <Link href={current.download_url} external data-testid="export-download">
            Download {current.format.toUpperCase()} ({current.row_count.toLocaleString()} rows)
          </Link>
        </StatusIndicator>
      )}
      <ButtonDropdown
        loading={starting}
        disabled={current?.status === "running"}
        items={[
          { id: "csv", text: "All matching events as CSV" },
          { id: "jsonl", text: "All matching events as JSON Lines" },
        ]}
        onItemClick={({ detail }) => void start(detail.id as "csv" | "jsonl")}
      >
        Export all
      </ButtonDropdown>
    </SpaceBetween>
  );
}
