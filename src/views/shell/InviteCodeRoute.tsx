import { Redirect } from 'wouter';

/**
 * /r/{code} and /ref/{code} (§2 Routes): the invite code is stored by the sign-in flow's own
 * component, which replaces this one in AppRoutes.tsx; until then the route only goes Home.
 */
export function InviteCodeRoute(_props: { code: string }) {
  return <Redirect to="/" replace />;
}
