import type { RosterPromiseClient } from "../../adapters/http/client.ts"
import type { PermissionKey } from "../../core/index.ts"

/** A product's own permissions, as it would declare them to Roster. */
export type ProductPermission = "projects.delete" | "invoices:read"

/**
 * What compiles, checked by `tsc` (npm run typecheck), never run: a product's keys are permissions
 * wherever Roster's are, a key neither declares is a type error, and the default takes any string.
 */
export const typeChecks = (roster: RosterPromiseClient<ProductPermission>, loose: RosterPromiseClient) => {
  void roster.authorize([
    { permission: "projects.delete" },
    { permission: "team.read", member: "m" },
    { permission: 5 }
  ])
  void roster.apiKeys.createApiKey({ name: "ci", permissions: ["invoices:read", "team.read"] })
  // @ts-expect-error: a typo of the product's key
  void roster.authorize([{ permission: "project.delete" }])
  // @ts-expect-error: neither Roster's nor the product's
  void roster.apiKeys.createApiKey({ name: "ci", permissions: ["invoices:write"] })
  void loose.authorize([{ permission: "anything:goes" }])
  void loose.apiKeys.createApiKey({ name: "ci", permissions: ["anything:goes"] })
  return roster.authorize([{ permission: "projects.delete" }]).then(([result]) => {
    // A key of either catalog, never any string.
    const key: PermissionKey | ProductPermission | undefined = result?.permission
    return key
  })
}
