/**
 * The last hour's alerts: the counted event types, the alerts that reached their thresholds (high first), and
 * the per-minute `series` as a chart when the API returns it. Refreshed every 30 seconds and on demand.
 */
import Alert from "@cloudscape-design/components/alert";
import BarChart from "@cloudscape-design/components/bar-chart";
import Box from "@cloudscape-design/components/box";
import Button from "@cloudscape-design/components/button";
import ColumnLayout from "@cloudscape-design/components/column-layout";
import Container from "@cloudscape-design/components/container";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import Link from "@cloudscape-design/components/link";
import SpaceBetween from "@cloudscape-design/components/space-between";
import StatusIndicator from "@cloudscape-design/components/status-indicator";
import Table from "@cloudscape-design/components/table";
import Toggle from "@cloudscape-design/components/toggle";
import { useEffect, useMemo, useState } from "react";
import { COUNTED_TYPES, type CountedType } from "../../../shared/constants";
import { apiPaths, client, ok } from "../api";
import { AuditTrailForbidden, ErrorNotice, isForbidden } from "../components/ErrorNotice";
import { eventLabel, formatClock, formatDateTime, formatTime, humanize } from "../format";
import { follow, query } from "../router";
import { usePage } from "../shell";
import { useApi } from "../useApi";

const REFRESH_MS = 30_000;

/** The contract's thresholds, to say how far each count is from its alert. */
const THRESHOLDS: Record<CountedType, { alert: string; at: number }> = {
  unauthorized_institution_access: { alert: "unauthorized_access", at: 5 },
  rate_limit_exceeded: { alert: "rate_limit", at: 10 },
  token_validation_failure: { alert: "token_failures", at: 20 },
};
const ALERT_LABELS: Record<string, string> = {
  unauthorized_access: "Unauthorized institution access",
  rate_limit: "Rate limit exceeded",
  token_failures: "Token validation failures",
};
const SEVERITY_RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/** The chart's height, and so (Cloudscape: one y tick per 50 px of plot) at most 6 ticks on its y axis. */
const CHART_HEIGHT = 260;
const MAX_Y_TICKS = Math.ceil(CHART_HEIGHT / 50);

/**
 * The y axis of counts: from 0 to a top that gives whole-number ticks. Cloudscape asks d3 for about
 * `MAX_Y_TICKS` ticks over the domain; over [0, 1] that is 0, 0.2, … 1, which no count can be. A top of at
 * least 5 makes d3's step at least 1 (its steps are 1, 2 or 5 times a power of ten), and rounding the top up
 * to a multiple of that step puts the last tick at the top.
 */
function countDomain(maxCount: number): [number, number] {
  const top = Math.max(5, Math.ceil(maxCount));
  const raw = top / MAX_Y_TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  const step = Math.max(1, (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1) * power);
  return [0, Math.ceil(top / step) * step];
}

export default function Alerts() {
  usePage("Alerts", [{ text: "Alerts", href: "/alerts" }]);
  const { data, error, loading, reload } = useApi(`${apiPaths.securityEvents}/alerts`, async (signal) =>
    ok(await client.GET(`${apiPaths.securityEvents}/alerts`, { signal })),
  );
  const [auto, setAuto] = useState(true);
  const [updated, setUpdated] = useState<Date>();

  useEffect(() => {
    if (data) setUpdated(new Date());
  }, [data]);
  useEffect(() => {
    if (!auto) return;
    const timer = window.setInterval(reload, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [auto, reload]);

  const alerts = useMemo(
    () =>
      [...(data?.alerts ?? [])].sort((a, b) => (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9) || b.count - a.count),
    [data],
  );
  const series = useMemo(
    () =>
      data
        ? COUNTED_TYPES.map((t) => ({
            title: eventLabel(t),
            type: "bar" as const,
            data: data.series.map((m) => ({ x: new Date(m.minute), y: m[t] })),
          }))
        : undefined,
    [data],
  );
  const domain = useMemo(() => data?.series.map((m) => new Date(m.minute)), [data]);
  // Bars are stacked: the tallest is a minute's total.
  const yDomain = useMemo(
    () => countDomain(Math.max(0, ...(data?.series ?? []).map((m) => COUNTED_TYPES.reduce((sum, t) => sum + m[t], 0)))),
    [data],
  );
  // Nothing loaded (the request failed): no "No alert" and no empty chart, which would claim a quiet hour.
  const failed = !data && error !== undefined;

  if (isForbidden(error)) return <AuditTrailForbidden title="Alerts" error={error} />;

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={
            data
              ? `Events from ${formatDateTime(data.time_range.from)} to ${formatDateTime(data.time_range.to)}.`
              : "The last hour of your account's security events."
          }
          actions={
            <SpaceBetween direction="horizontal" size="m" alignItems="center">
              <Toggle checked={auto} onChange={({ detail }) => setAuto(detail.checked)}>
                Refresh every 30 s
              </Toggle>
              <Button iconName="refresh" loading={loading && data !== undefined} onClick={reload}>
                Refresh
              </Button>
            </SpaceBetween>
          }
        >
          Alerts
        </Header>
      }
    >
      <SpaceBetween size="l">
        {error !== undefined && <ErrorNotice error={error} onRetry={reload} />}
        {updated && (
          <Box variant="small" color="text-body-secondary" data-testid="alerts-updated">
            Updated at {formatTime(updated)}
          </Box>
        )}
        <Container
          header={
            <Header variant="h2" description="Counted over the last hour; each alert has its threshold.">
              Summary
            </Header>
          }
        >
          <ColumnLayout columns={3} variant="text-grid">
            {COUNTED_TYPES.map((t) => (
              <div key={t}>
                <Box variant="awsui-key-label">{eventLabel(t)}</Box>
                <Box variant="awsui-value-large" display="block" data-testid={`summary-${t}`}>
                  {data ? data.summary[t] : "–"}
                </Box>
                <Box variant="small" display="block" color="text-body-secondary">
                  Alert at {THRESHOLDS[t].at} ·{" "}
                  <Link href={`/security-events${query({ event_type: t, range: "1-hour" })}`} onFollow={follow}>
                    show events
                  </Link>
                </Box>
              </div>
            ))}
          </ColumnLayout>
        </Container>
        <Table
          data-testid="alerts-table"
          items={alerts}
          loading={loading && !data}
          loadingText="Loading alerts"
          trackBy="type"
          ariaLabels={{ tableLabel: "Alerts by severity" }}
          header={
            <Header variant="h2" counter={data ? `(${alerts.length})` : undefined}>
              Alerts by severity
            </Header>
          }
          empty={
            failed ? (
              <Box color="text-body-secondary" data-testid="alerts-not-loaded">
                Not loaded: the alerts are unknown until the request succeeds.
              </Box>
            ) : (
              <StatusIndicator type="success">No alert: no count reached its threshold in the last hour.</StatusIndicator>
            )
          }
          columnDefinitions={[
            {
              id: "severity",
              header: "Severity",
              cell: (a) => (
                <StatusIndicator type={a.severity === "high" ? "error" : "warning"} wrapText={false}>
                  {humanize(a.severity)}
                </StatusIndicator>
              ),
            },
            { id: "type", header: "Alert", isRowHeader: true, cell: (a) => ALERT_LABELS[a.type] ?? humanize(a.type) },
            { id: "count", header: "Events in the last hour", cell: (a) => a.count },
          ]}
        />
        <Container
          header={
            <Header variant="h2" description="Events of the counted types in each minute of the hour.">
              Per minute
            </Header>
          }
        >
          {!data ? (
            <Box textAlign="center" color="text-body-secondary">
              {failed ? "Not loaded" : "Loading"}
            </Box>
          ) : series && domain ? (
            <BarChart
              data-testid="alerts-chart"
              series={series}
              xDomain={domain}
              xScaleType="categorical"
              stackedBars
              yDomain={yDomain}
              height={CHART_HEIGHT}
              hideFilter
              xTitle="Minute"
              yTitle="Events"
              ariaLabel="Events per minute over the last hour"
              i18nStrings={{
                // Every minute is labelled; the chart itself thins the axis labels so they do not collide.
                xTickFormatter: (d) => (d instanceof Date ? formatClock(d) : String(d)),
                yTickFormatter: (n) => n.toLocaleString("en-GB"),
              }}
              empty={<Box color="text-body-secondary">No events in the last hour</Box>}
            />
          ) : (
            <Alert type="info">This API version returns no per-minute series, so there is no chart. The counts above are complete.</Alert>
          )}
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
