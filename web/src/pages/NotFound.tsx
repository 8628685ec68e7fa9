import Alert from "@cloudscape-design/components/alert";
import ContentLayout from "@cloudscape-design/components/content-layout";
import Header from "@cloudscape-design/components/header";
import Link from "@cloudscape-design/components/link";
import { follow } from "../router";
import { usePage } from "../shell";

export default function NotFound() {
  usePage("Page not found", []);
  return (
    <ContentLayout header={<Header variant="h1">Page not found</Header>}>
      <Alert type="warning" header="There is no page at this address">
        Go to the{" "}
        <Link href="/institutions" onFollow={follow}>
          institutions
        </Link>
        .
      </Alert>
    </ContentLayout>
  );
}
