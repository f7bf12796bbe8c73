import type { FunctionComponent } from "preact"
import { allows, type Me } from "./api.ts"
import { Account } from "./pages/account.tsx"
import { ApiKeys } from "./pages/api-keys.tsx"
import { Audit } from "./pages/audit.tsx"
import { Billing } from "./pages/billing.tsx"
import { Invitations } from "./pages/invitations.tsx"
import { Members } from "./pages/members.tsx"
import { Organization } from "./pages/organization.tsx"
import { Roles } from "./pages/roles.tsx"
import { ScimTokens } from "./pages/scim-tokens.tsx"
import { Webhooks } from "./pages/webhooks.tsx"

export interface Page {
  readonly path: string
  readonly title: string
  readonly Page: FunctionComponent<{ readonly me: Me }>
  /** Whether the caller may open it: the permission of the call that reads it. */
  readonly opens: (me: Me) => boolean
}

/** The pages behind sign-in, in the navigation's order. */
export const pages: ReadonlyArray<Page> = [
  { path: "/members", title: "Members", Page: Members, opens: (me) => allows(me, "team.listMembers") },
  { path: "/roles", title: "Roles", Page: Roles, opens: (me) => allows(me, "team.listRoles") },
  {
    path: "/invitations",
    title: "Invitations",
    Page: Invitations,
    opens: (me) => allows(me, "team.listInvitations")
  },
  { path: "/api-keys", title: "API keys", Page: ApiKeys, opens: (me) => allows(me, "apiKeys.listApiKeys") },
  {
    path: "/webhooks",
    title: "Webhooks",
    Page: Webhooks,
    opens: (me) => allows(me, "webhooks.listWebhooks")
  },
  {
    path: "/scim-tokens",
    title: "SCIM tokens",
    Page: ScimTokens,
    opens: (me) => allows(me, "organizations.listScimTokens")
  },
  { path: "/audit", title: "Audit record", Page: Audit, opens: (me) => allows(me, "audit.listEvents") },
  { path: "/billing", title: "Billing", Page: Billing, opens: (me) => allows(me, "pricing.listPlans") },
  {
    path: "/organization",
    title: "Organisation",
    Page: Organization,
    opens: (me) => allows(me, "organizations.getOrganization")
  },
  {
    path: "/account",
    title: "My account",
    Page: ({ me }) => Account({ emailVerified: me.member?.emailVerified === true }),
    opens: (me) => me.member !== undefined
  }
]
