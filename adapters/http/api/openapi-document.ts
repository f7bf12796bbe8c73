import { OpenApi } from "effect/http-api"
import { declareBearerSecurity } from "./bearer-security.ts"
import { declareIdempotency } from "./idempotency-openapi.ts"
import { queryDocs } from "./list-query.ts"
import { RosterApi } from "./roster-api.ts"

/** One line per operation, for client generators and the docs page; a test requires every one. */
export const summaries: Readonly<Record<string, string>> = {
  "team.addMember": "Add a team member",
  "team.addRole": "Add a role",
  "team.removePermission": "Remove a permission from a role's record",
  "team.getRolePermissionDetail": "Read a role's permission record",
  "team.grantPermission": "Grant a permission to a role",
  "team.listMembers": "List the team's members",
  "team.getMember": "Read a team member",
  "team.updateMember": "Change a member's username, e-mail, membership or role",
  "team.removeMember": "Remove a team member",
  "team.listRoles": "List the roles",
  "team.getRole": "Read a role",
  "team.updateRole": "Rename, re-key, deactivate or reactivate a role",
  "team.removeRole": "Delete a role no member holds, with its permission record",
  "team.listPermissions": "List the permission catalog",
  "pricing.subscribe": "Subscribe the organisation to a plan",
  "pricing.listPlans": "List the plan catalog",
  "pricing.currentSubscription": "Read the organisation's current subscription",
  "pricing.cancelSubscription":
    "Cancel the organisation's subscription (at the provider, at the period's end)",
  "admin.toggleAccountStatus": "Enable or disable a member's account",
  "auth.login": "Sign in with a username or e-mail and a password",
  "auth.logout": "End the calling session",
  "auth.me": "Tell who the caller is",
  "auth.changePassword": "Change one's own password, ending every other session",
  "admin.setMemberPassword": "Set a member's password, ending all their sessions",
  "payments.webhook": "Receive a payment provider's event",
  "audit.listEvents": "List the audit record, newest first",
  "health.live": "Liveness: the process answers",
  "health.ready": "Readiness: the store answers"
}

const tagDescriptions: Readonly<Record<string, string>> = {
  team: "Members, roles and the permissions roles hold",
  pricing: "The plan catalog and the organisation's subscription",
  admin: "Account administration: enabling accounts, setting passwords",
  auth: "Sessions: sign in, sign out, who am I, one's own password",
  payments: "The payment provider's webhook, authenticated by its signature",
  audit: "The audit record: who changed what, and when",
  health: "Liveness and readiness probes"
}

/**
 * How one operation's answer feeds the next (OpenAPI links), so that clients and stateful testers
 * can follow a created member or record to its reads and changes.
 */
const links: Readonly<Record<string, Record<string, object>>> = {
  "team.addMember": {
    ReadMember: { operationId: "team.getMember", parameters: { id: "$response.body#/id" } },
    ChangeMember: { operationId: "team.updateMember", parameters: { id: "$response.body#/id" } },
    RemoveMember: { operationId: "team.removeMember", parameters: { id: "$response.body#/id" } },
    SetPassword: {
      operationId: "admin.setMemberPassword",
      parameters: { id: "$response.body#/id" },
      requestBody: { newPassword: "a new long password" }
    },
    DisableAccount: {
      operationId: "admin.toggleAccountStatus",
      requestBody: { user_id: "$response.body#/id", accountActiveStatus: false }
    }
  },
  "team.addRole": {
    ReadRole: { operationId: "team.getRole", parameters: { id: "$response.body#/id" } },
    ChangeRole: { operationId: "team.updateRole", parameters: { id: "$response.body#/id" } },
    DeleteRole: { operationId: "team.removeRole", parameters: { id: "$response.body#/id" } },
    GrantToRole: {
      operationId: "team.grantPermission",
      requestBody: { roleId: "$response.body#/id", permissionId: 1 }
    }
  },
  "team.grantPermission": {
    ReadRecord: { operationId: "team.getRolePermissionDetail", parameters: { id: "$response.body#/id" } },
    RemoveFromRecord: {
      operationId: "team.removePermission",
      parameters: { id: "$response.body#/id" },
      requestBody: { permissionId: 1 }
    }
  },
  "pricing.subscribe": {
    ReadSubscription: { operationId: "pricing.currentSubscription" },
    CancelSubscription: { operationId: "pricing.cancelSubscription" }
  },
  "auth.login": { WhoAmI: { operationId: "auth.me" } }
}

type Operation = {
  operationId?: string
  parameters?: Array<{ name: string; in: string; description?: string; schema?: { format?: string } }>
  summary?: string
  security?: unknown
  requestBody?: { required?: boolean }
  responses?: Record<string, { links?: object }>
}

type Document = ReturnType<typeof OpenApi.fromApi> & {
  servers?: ReadonlyArray<{ url: string; description: string }>
}

/** Completes the generated document: summaries, tags, links, idempotency, the mode's security. */
const complete = (generated: Document, options: { readonly openLocal: boolean }) => {
  // This transform replaces RosterApi's own, which declares the bearer scheme: in secure mode, do that first.
  const document = options.openLocal ? generated : declareBearerSecurity(RosterApi, generated)
  document.servers = [{ url: "/", description: "This server" }]
  Object.assign(document.info, { license: { name: "MIT", identifier: "MIT" } })
  Object.assign(document, {
    tags: (document.tags ?? []).map((tag) => ({ ...tag, description: tagDescriptions[tag.name] ?? tag.name }))
  })
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path as Record<string, Operation>)) {
      const summary = summaries[operation.operationId ?? ""]
      if (summary !== undefined) operation.summary = summary
      for (const parameter of operation.parameters ?? []) {
        const docs = parameter.in === "query" ? queryDocs[parameter.name] : undefined
        if (docs === undefined) continue
        parameter.description = docs.description
        if (docs.format !== undefined && parameter.schema !== undefined) parameter.schema.format = docs.format
      }
      const ok = operation.responses?.["200"]
      const next = links[operation.operationId ?? ""]
      if (ok !== undefined && next !== undefined) ok.links = next
      if (options.openLocal) delete operation.security
      // An empty delivery is acknowledged (a provider's connectivity check), so the body is optional.
      if (operation.operationId === "payments.webhook" && operation.requestBody !== undefined) {
        operation.requestBody.required = false
      }
    }
  }
  declareIdempotency(
    document.paths as unknown as Parameters<typeof declareIdempotency>[0],
    document.components as Parameters<typeof declareIdempotency>[1]
  )
  if (options.openLocal) delete (document.components as { securitySchemes?: unknown }).securitySchemes
  return document
}

/**
 * The API as documented in the mode the server runs in (in open local mode no operation requires
 * credentials, so none declares a security requirement): the JSON document and the docs page are
 * both generated from it, so they cannot differ.
 */
export const documentedApi = (options: { readonly openLocal: boolean }) =>
  RosterApi.annotate(OpenApi.Transform, (document) => complete(document as Document, options))

/** The OpenAPI document of the mode; build it once at start. */
export const openApiDocument = (options: { readonly openLocal: boolean }) =>
  OpenApi.fromApi(documentedApi(options))
