/** The frame (top bar, side navigation, breadcrumbs, flash messages) and the routes, each page loaded on demand. */
import "@cloudscape-design/global-styles/index.css";
import AppLayout, { type AppLayoutProps } from "@cloudscape-design/components/app-layout";
import BreadcrumbGroup, { type BreadcrumbGroupProps } from "@cloudscape-design/components/breadcrumb-group";
import Flashbar, { type FlashbarProps } from "@cloudscape-design/components/flashbar";
import { I18nProvider } from "@cloudscape-design/components/i18n";
import messages from "@cloudscape-design/components/i18n/messages/all.en";
import SideNavigation, { type SideNavigationProps } from "@cloudscape-design/components/side-navigation";
import Spinner from "@cloudscape-design/components/spinner";
import TopNavigation, { type TopNavigationProps } from "@cloudscape-design/components/top-navigation";
import { lazy, type ReactElement, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { SSO_CALLBACK_PATH } from "./auth/callback";
import { type Session, useSession } from "./auth/session";
import { signOut } from "./auth/signOut";
import { ErrorBoundary, logRenderError } from "./components/ErrorBoundary";
import { ACCEPT_PATH, invitationToken } from "./invitation";
import { follow, matchPath, useLocation } from "./router";
import { pageOf, type Shell, ShellContext } from "./shell";

const pages = {
  institutions: () => import("./pages/Institutions"),
  institutionForm: () => import("./pages/InstitutionForm"),
  institution: () => import("./pages/Institution"),
  accept: () => import("./pages/AcceptInvitation"),
  events: () => import("./pages/SecurityEvents"),
  event: () => import("./pages/SecurityEvent"),
  alerts: () => import("./pages/Alerts"),
  webhooks: () => import("./pages/Webhooks"),
  notFound: () => import("./pages/NotFound"),
  signIn: () => import("./pages/SignIn"),
  account: () => import("./pages/Account"),
  join: () => import("./pages/JoinInvitation"),
  ssoCallback: () => import("./pages/SsoCallback"),
};

const Institutions = lazy(pages.institutions);
const InstitutionForm = lazy(pages.institutionForm);
const InstitutionPage = lazy(pages.institution);
const AcceptInvitation = lazy(pages.accept);
const SecurityEvents = lazy(pages.events);
const SecurityEventPage = lazy(pages.event);
const Alerts = lazy(pages.alerts);
const Webhooks = lazy(pages.webhooks);
const NotFound = lazy(pages.notFound);
const SignIn = lazy(pages.signIn);
const Account = lazy(pages.account);
const JoinInvitation = lazy(pages.join);
const SsoCallback = lazy(pages.ssoCallback);

interface Routed {
  readonly element: ReactElement;
  readonly contentType: "table" | "default" | "dashboard";
}

function route(pathname: string): Routed {
  const on = (pattern: string) => matchPath(pattern, pathname);
  if (pathname === "/" || on("/institutions")) return { element: <Institutions />, contentType: "table" };
  if (on("/institutions/new")) return { element: <InstitutionForm />, contentType: "default" };
  const edit = on("/institutions/:id/edit");
  if (edit) return { element: <InstitutionForm id={edit.id} key={edit.id} />, contentType: "default" };
  const institution = on("/institutions/:id");
  if (institution) return { element: <InstitutionPage id={institution.id ?? ""} key={institution.id} />, contentType: "default" };
  if (on("/invitations/accept")) return { element: <AcceptInvitation />, contentType: "default" };
  if (on("/security-events")) return { element: <SecurityEvents />, contentType: "table" };
  const event = on("/security-events/:id");
  if (event) return { element: <SecurityEventPage id={event.id ?? ""} key={event.id} />, contentType: "default" };
  if (on("/alerts")) return { element: <Alerts />, contentType: "dashboard" };
  if (on("/webhooks")) return { element: <Webhooks />, contentType: "table" };
  if (on("/account")) return { element: <Account />, contentType: "default" };
  return { element: <NotFound />, contentType: "default" };
}

/*
 * What the frame hands to Cloudscape's components is made once (or once per value it depends on), never anew
 * on each render: TopNavigation measures itself again, from a callback ref and a layout effect, whenever its
 * `utilities` change identity, and sets its state from inside React's commit. Fed a new array on each render,
 * every render of the frame became a chain of nested updates that a slow first load could lengthen into
 * React's "Maximum update depth exceeded" (#185).
 */
const NAV_ITEMS: readonly SideNavigationProps.Item[] = [{ type: "link", text: "Institutions", href: "/institutions" }];
// Only cohort super admins may read the audit trail and manage webhooks (the API answers 403 to anyone else).
const SUPER_ADMIN_NAV_ITEMS: readonly SideNavigationProps.Item[] = [
  ...NAV_ITEMS,
  { type: "link", text: "Security events", href: "/security-events" },
  { type: "link", text: "Alerts", href: "/alerts" },
  { type: "link", text: "Webhooks", href: "/webhooks" },
];
const NAV_HEADER: SideNavigationProps.Header = { href: "/institutions", text: "Console" };
const IDENTITY: TopNavigationProps.Identity = { href: "/institutions", title: "Institution Admin", onFollow: follow };
const LAYOUT_LABELS: AppLayoutProps.Labels = {
  navigation: "Navigation",
  navigationClose: "Close navigation",
  navigationToggle: "Open navigation",
  notifications: "Notifications",
};
const I18N_MESSAGES = [messages];

const pageFallback = (
  <div style={{ padding: "2rem", textAlign: "center" }}>
    <Spinner size="large" />
  </div>
);

interface FlashItem {
  readonly id: string;
  /** The page it is about (`pageOf`): it shows there, and goes once another page opens. */
  readonly on: string;
  readonly item: FlashbarProps.MessageDefinition;
}

export function App() {
  const session = useSession();
  const { pathname } = useLocation();
  // A single sign-on coming back finishes on its own page, signed in or not; it then opens the page it started from.
  const callback = pathname.replace(/\/+$/, "") === SSO_CALLBACK_PATH;
  // Cloudscape's own English strings: labels of its controls (pagination, dialogs, date pickers) for screen readers.
  return (
    <I18nProvider locale="en" messages={I18N_MESSAGES}>
      <ErrorBoundary>
        {session && !callback ? (
          <Console session={session} />
        ) : (
          <Suspense fallback={pageFallback}>
            <SignedOut />
          </Suspense>
        )}
      </ErrorBoundary>
    </I18nProvider>
  );
}

/**
 * Nobody signed in: an invitation link opens the invitation (open, join or sign in); a single sign-on coming
 * back, its callback; any other page, sign-in.
 */
function SignedOut() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, "");
  if (path === SSO_CALLBACK_PATH) return <SsoCallback />;
  return path === ACCEPT_PATH && invitationToken() !== undefined ? <JoinInvitation /> : <SignIn />;
}

function Console({ session }: { session: Session }) {
  const { pathname } = useLocation();
  const [crumbs, setCrumbs] = useState<readonly BreadcrumbGroupProps.Item[]>([]);
  const [flashes, setFlashes] = useState<readonly FlashItem[]>([]);
  const [navOpen, setNavOpen] = useState(true);
  const flashSeq = useRef(0);

  const dismiss = useCallback((id: string) => setFlashes((all) => all.filter((f) => f.id !== id)), []);
  const shell = useMemo<Shell>(
    () => ({
      setCrumbs,
      flash: ({ type, content, header }, opts) => {
        const id = `flash-${++flashSeq.current}`;
        const item: FlashbarProps.MessageDefinition = {
          id,
          type,
          content,
          header,
          dismissible: true,
          dismissLabel: "Dismiss message",
          // Announced by screen readers as it appears: errors at once, other outcomes politely.
          ariaRole: type === "error" ? "alert" : "status",
          onDismiss: () => dismiss(id),
        };
        // The newest message replaces the others: one outcome at a time, not a growing pile.
        setFlashes([{ id, on: pageOf(opts?.on ?? location.pathname), item }]);
      },
    }),
    [dismiss],
  );

  // A message stays on the page it is about (a create's message on the page it opens) and goes when another
  // page opens: "Invitation sent" does not follow the person to the next page they visit. A change of the
  // query alone (a tab, a filter) keeps the page. Focus moves to the new page's heading, so a screen reader
  // announces where the person landed.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const page = pageOf(pathname);
    setFlashes((all) => (all.some((f) => f.on !== page) ? all.filter((f) => f.on === page) : all));
    // The new page's code may still be loading: wait (up to 2 s) for its heading to appear.
    let tries = 0;
    const timer = window.setInterval(() => {
      const h1 = document.querySelector<HTMLElement>("main h1");
      if (h1 || ++tries > 40) window.clearInterval(timer);
      if (h1 && !h1.contains(document.activeElement) && !document.querySelector("[role=dialog]")) {
        h1.tabIndex = -1;
        h1.focus({ preventScroll: true });
      }
    }, 50);
    return () => window.clearInterval(timer);
  }, [pathname]);

  const { element, contentType } = useMemo(() => route(pathname), [pathname]);
  const section = `/${pathname.split("/")[1] ?? ""}`;
  const activeHref = section === "/" ? "/institutions" : section;

  const utilities = useMemo<TopNavigationProps.Utility[]>(
    () => [
      {
        type: "menu-dropdown",
        text: session.name ?? session.email,
        description: session.email,
        iconName: "user-profile",
        // Contains the visible name, as a screen reader's voice commands need it to.
        ariaLabel: session.name ? `${session.name} (${session.email})` : session.email,
        items: [
          { id: "account", text: "Your account", href: "/account" },
          { id: "sign-out", text: "Sign out" },
        ],
        onItemClick: (event) => {
          if (event.detail.id === "sign-out") void signOut();
          else follow(event);
        },
      },
    ],
    [session.name, session.email],
  );
  const onNavigationChange = useCallback(({ detail }: { detail: AppLayoutProps.ChangeDetail }) => setNavOpen(detail.open), []);
  const breadcrumbs = useMemo(
    () => (crumbs.length > 0 ? <BreadcrumbGroup items={crumbs} onFollow={follow} ariaLabel="Breadcrumbs" /> : undefined),
    [crumbs],
  );
  const notifications = useMemo(() => (flashes.length > 0 ? <Flashbar items={flashes.map((f) => f.item)} /> : undefined), [flashes]);

  return (
    <ShellContext.Provider value={shell}>
      <div id="top-nav" style={{ position: "sticky", top: 0, zIndex: 1002 }}>
        <TopNavigation identity={IDENTITY} utilities={utilities} />
      </div>
      <AppLayout
        headerSelector="#top-nav"
        navigation={
          <SideNavigation
            header={NAV_HEADER}
            activeHref={activeHref}
            items={session.superAdmin ? SUPER_ADMIN_NAV_ITEMS : NAV_ITEMS}
            onFollow={follow}
          />
        }
        navigationOpen={navOpen}
        onNavigationChange={onNavigationChange}
        ariaLabels={LAYOUT_LABELS}
        breadcrumbs={breadcrumbs}
        notifications={notifications}
        toolsHide
        contentType={contentType}
        content={
          // A page that fails shows the error page inside the frame; the next navigation starts afresh.
          <ErrorBoundary key={pathname}>
            <Suspense fallback={pageFallback}>{element}</Suspense>
          </ErrorBoundary>
        }
      />
    </ShellContext.Provider>
  );
}

/** Renders the console into `#root`. */
export function mount(root: HTMLElement): void {
  // An error outside every boundary still reaches the console's log with its component stack.
  createRoot(root, { onUncaughtError: logRenderError }).render(<App />);
}
