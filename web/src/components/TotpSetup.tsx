/**
 * Setting up an authenticator app: the `otpauth://` URI as a QR code, the secret as text for typing in, and
 * the first code. The QR code is drawn from `qrcode`'s module matrix as one SVG path (no inline markup or
 * data URL), and that library loads only here.
 */
import Box from "@cloudscape-design/components/box";
import ExpandableSection from "@cloudscape-design/components/expandable-section";
import FormField from "@cloudscape-design/components/form-field";
import Input from "@cloudscape-design/components/input";
import SpaceBetween from "@cloudscape-design/components/space-between";
import Spinner from "@cloudscape-design/components/spinner";
import { useEffect, useState } from "react";

function QrCode({ uri }: { uri: string }) {
  const [path, setPath] = useState<{ d: string; size: number }>();
  useEffect(() => {
    let live = true;
    void import("qrcode").then(({ default: QR }) => {
      const { modules } = QR.create(uri, { errorCorrectionLevel: "M" });
      let d = "";
      for (let y = 0; y < modules.size; y++)
        for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) d += `M${x + 4} ${y + 4}h1v1h-1z`;
      if (live) setPath({ d, size: modules.size + 8 });
    });
    return () => {
      live = false;
    };
  }, [uri]);
  if (!path) return <Spinner size="large" />;
  return (
    <svg
      role="img"
      aria-label="QR code for your authenticator app"
      viewBox={`0 0 ${path.size} ${path.size}`}
      width={200}
      height={200}
      shapeRendering="crispEdges"
      data-testid="totp-qr"
    >
      <rect width={path.size} height={path.size} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}

/** Groups of four, as authenticator apps show secrets: easier to type without a slip. */
const grouped = (secret: string): string => secret.replace(/(.{4})(?=.)/g, "$1 ");

export function TotpSetup(props: {
  uri: string;
  secret: string;
  code: string;
  onCode: (code: string) => void;
  errorText?: string | undefined;
}) {
  return (
    <SpaceBetween size="m">
      <Box variant="p">
        Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), then enter the
        6-digit code it shows.
      </Box>
      <QrCode uri={props.uri} />
      <ExpandableSection headerText="Cannot scan? Enter the key by hand" defaultExpanded>
        <SpaceBetween size="xxs">
          <Box variant="p">In your app, add an account by key (time-based), and type this key:</Box>
          <Box variant="code" fontSize="heading-s" data-testid="totp-secret">
            {grouped(props.secret)}
          </Box>
        </SpaceBetween>
      </ExpandableSection>
      <FormField label="Code from your app" errorText={props.errorText} constraintText="6 digits; a new one every 30 seconds.">
        <Input
          value={props.code}
          onChange={({ detail }) => props.onCode(detail.value.replace(/\s/g, ""))}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
      </FormField>
    </SpaceBetween>
  );
}
