/**
 * The top bar of the pages nobody is signed in to (sign-in, joining, a single sign-on coming back): the
 * product's name only.
 *
 * Made once and memoized, so a keystroke in the page's form does not render it again. Cloudscape's
 * TopNavigation measures itself from a callback ref and sets its state inside React's commit whenever its
 * `utilities` change identity, and its own default for them is a new `[]` on every render: left to that, each
 * keystroke became a commit with more work pending, and a burst of keystrokes on a busy machine ran
 * React's nested-update count past its limit ("Maximum update depth exceeded", #185).
 */
import TopNavigation, { type TopNavigationProps } from "@cloudscape-design/components/top-navigation";
import { memo } from "react";

const IDENTITY: TopNavigationProps.Identity = { href: "/", title: "Institution Admin" };
const NO_UTILITIES: TopNavigationProps.Utility[] = [];

export const SignedOutBar = memo(function SignedOutBar() {
  return (
    <div id="top-nav">
      <TopNavigation identity={IDENTITY} utilities={NO_UTILITIES} />
    </div>
  );
});
