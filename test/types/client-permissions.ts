import { Effect } from "effect"
import type { RosterClient, RosterPromiseClient } from "../../adapters/http/client.ts"
import { PermissionId, type PermissionKey, RoleId } from "../../core/index.ts"

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

/** The same of the Effect client (`makeRosterClient<P>`): its requests take what the server decodes. */
export const effectTypeChecks = (roster: RosterClient<ProductPermission>, loose: RosterClient) =>
  Effect.gen(function* () {
    const roleId = RoleId.make(7)
    const answer = yield* roster.authorization.authorize({
      payload: {
        checks: [
          { permission: "projects.delete" },
          { permission: "team.read", member: "m" },
          { permission: PermissionId.make(5) }
        ]
      }
    })
    yield* roster.apiKeys.createApiKey({
      payload: { name: "ci", permissions: ["invoices:read", "team.read"] }
    })
    yield* roster.team.grantPermission({ payload: { roleId, permissionId: "projects.delete" } })
    yield* roster.team.listMembers({ query: { permission: "invoices:read" } })
    // @ts-expect-error: a typo of the product's key
    yield* roster.authorization.authorize({ payload: { checks: [{ permission: "project.delete" }] } })
    // @ts-expect-error: neither Roster's nor the product's
    yield* roster.apiKeys.createApiKey({ payload: { name: "ci", permissions: ["invoices:write"] } })
    // @ts-expect-error: a grant by a key nobody declared
    yield* roster.team.grantPermission({ payload: { roleId, permissionId: "projects.remove" } })
    // @ts-expect-error: the members list's filter takes a declared key too
    yield* roster.team.listMembers({ query: { permission: "invoice:read" } })
    yield* loose.authorization.authorize({ payload: { checks: [{ permission: "anything:goes" }] } })
    yield* loose.team.grantPermission({ payload: { roleId, permissionId: "anything:goes" } })
    // A key of either catalog, never any string.
    const key: PermissionKey | ProductPermission | undefined = answer.results[0]?.permission
    return key
  })
