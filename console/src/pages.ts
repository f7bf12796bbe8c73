import type { FunctionComponent } from "preact"
import { allows, type Me, type Operation } from "./api.ts"
import { Account } from "./pages/account.tsx"
import { ApiKeys } from "./pages/api-keys.tsx"
import { Audit } from "./pages/audit.tsx"
import { Billing } from "./pages/billing.tsx"
import { Invitations } from "./pages/invitations.tsx"
import { Members } from "./pages/members.tsx"
import { Organization } from "./pages/organization.tsx"
import { Permissions } from "./pages/permissions.tsx"
import { Roles } from "./pages/roles.tsx"
import { ScimTokens } from "./pages/scim-tokens.tsx"
import { SingleSignOn } from "./pages/sso.tsx"
import { Webhooks } from "./pages/webhooks.tsx"

export interface Page {
  readonly path: string
  readonly title: string
  readonly Page: FunctionComponent<{ readonly me: Me }>
  /** The call that reads the page, offered to those it allows; one's own account, to members. */
  readonly reads: Operation | "own account"
}

/** The pages behind sign-in, in the navigation's order. */
export const pages: ReadonlyArray<Page> = [
  { path: "/members", title: "Members", Page: Members, reads: "team.listMembers" },
  { path: "/roles", title: "Roles", Page: Roles, reads: "team.listRoles" },
  { path: "/permissions", title: "Permissions", Page: Permissions, reads: "team.listPermissions" },
  { path: "/invitations", title: "Invitations", Page: Invitations, reads: "team.listInvitations" },
  { path: "/api-keys", title: "API keys", Page: ApiKeys, reads: "apiKeys.listApiKeys" },
  { path: "/webhooks", title: "Webhooks", Page: Webhooks, reads: "webhooks.listWebhooks" },
  { path: "/scim-tokens", title: "SCIM tokens", Page: ScimTokens, reads: "organizations.listScimTokens" },
  { path: "/sso", title: "Single sign-on", Page: SingleSignOn, reads: "sso.listSsoConnections" },
  { path: "/audit", title: "Audit record", Page: Audit, reads: "audit.listEvents" },
  { path: "/billing", title: "Billing", Page: Billing, reads: "pricing.listPlans" },
  {
    path: "/organization",
    title: "Organisation",
    Page: Organization,
    reads: "organizations.getOrganization"
  },
  {
    path: "/account",
    title: "My account",
    Page: ({ me }) => Account({ emailVerified: me.member?.emailVerified === true }),
    reads: "own account"
  }
]

/** Whether the caller may open `page`. */
export const opens = (page: Page, me: Me) =>
  page.reads === "own account" ? me.member !== undefined : allows(me, page.reads)
