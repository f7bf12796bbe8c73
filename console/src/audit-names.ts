import { allows, type Me, type Operation, roster } from "./api.ts"
import type { Role } from "./roles-data.ts"
import { useLoad } from "./use-call.ts"

type Entry = Awaited<ReturnType<ReturnType<typeof roster.audit.listEvents>["firstPage"]>>["items"][number]
type Names = ReadonlyMap<string, string>

/** The first page of a list the caller may read, as (id, name) pairs; none for one it may not. */
const useNames = <T>(
  me: Me,
  operation: Operation,
  read: () => Promise<{ readonly items: ReadonlyArray<T> } | ReadonlyArray<T>>,
  pair: (item: T) => readonly [string, string]
) => {
  const may = allows(me, operation)
  const loaded = useLoad(async () => {
    if (!may) return undefined
    const answer = await read()
    return new Map(("items" in answer ? answer.items : answer).map(pair)) as Names
  })
  return loaded.data
}

/** The field of a change that names what the entry is about, where the entry carries it. */
const namingFields = ["username", "name", "email", "url", "domain"]

/** What the entries themselves name: a thing made or removed carries its name among its changes. */
const namedByEntries = (entries: ReadonlyArray<Entry>) => {
  const named = new Map<string, string>()
  for (const entry of entries)
    for (const field of namingFields) {
      const [was, is] = entry.changes[field] ?? []
      const name = is ?? was
      if (typeof name === "string") named.set(`${entry.target.type}:${entry.target.id}`, name)
    }
  return named
}

/** How each kind of target reads before its name. */
const kinds: Readonly<Record<string, string>> = {
  role: "role",
  role_permission_detail: "permissions of",
  invitation: "invitation for",
  scim_token: "SCIM token",
  api_key: "API key",
  webhook: "webhook",
  domain: "domain",
  sso_connection: "connection",
  member: "member",
  login: "login",
  session: "session",
  subscription: "subscription",
  organization: "organisation"
}

/** Who acted, in words, where no one of the organisation did. */
const actorKinds: Readonly<Record<string, string>> = {
  master: "the operator",
  open: "an unauthenticated caller",
  provider: "the payment provider",
  system: "Roster",
  scim: "SCIM token",
  sso: "single sign-on through",
  api_key: "API key"
}

/**
 * The names of what the audit record speaks of: people by username, API keys, roles, webhooks,
 * connections, tokens and domains by name, from the lists the caller may read and from the entries
 * themselves; an id only for what no longer exists (or what the caller may not list).
 */
export const useAuditNames = (me: Me, roles: ReadonlyArray<Role>, entries: ReadonlyArray<Entry>) => {
  const lists: Record<string, Names | undefined> = {
    member: useNames(
      me,
      "team.listMembers",
      () => roster.team.listMembers({ limit: 200 }).firstPage(),
      (m) => [m.id, m.username]
    ),
    api_key: useNames(
      me,
      "apiKeys.listApiKeys",
      () => roster.apiKeys.listApiKeys({ limit: 200 }).firstPage(),
      (k) => [k.id, k.name]
    ),
    webhook: useNames(
      me,
      "webhooks.listWebhooks",
      () => roster.webhooks.listWebhooks({ limit: 200 }).firstPage(),
      (w) => [w.id, w.url]
    ),
    sso_connection: useNames(
      me,
      "sso.listSsoConnections",
      () => roster.sso.listSsoConnections({ limit: 200 }).firstPage(),
      (c) => [c.id, c.name]
    ),
    domain: useNames(
      me,
      "sso.listDomains",
      () => roster.sso.listDomains({ limit: 200 }).firstPage(),
      (d) => [d.id, d.domain]
    ),
    scim_token: useNames(
      me,
      "organizations.listScimTokens",
      () => roster.organizations.listScimTokens(),
      (t) => [t.id, t.name]
    ),
    invitation: useNames(
      me,
      "team.listInvitations",
      () => roster.team.listInvitations({ limit: 200 }).firstPage(),
      (i) => [i.id, i.email]
    ),
    role: new Map(roles.map((role) => [String(role.id), role.name])),
    role_permission_detail: new Map(roles.map((role) => [String(role.recordId), role.name])),
    organization: new Map([[me.organization.id, me.organization.name]])
  }
  lists.login = lists.member
  const permissions = useNames(
    me,
    "team.listPermissions",
    () => roster.team.listPermissions(),
    (p) => [String(p.id), p.key]
  )
  const fromEntries = namedByEntries(entries)
  const nameOf = (type: string, id: string) => lists[type]?.get(id) ?? fromEntries.get(`${type}:${id}`)
  /** A target in words: `role Support`, `ada`; `former member 99f0…` for what is gone. */
  const target = (type: string, id: string) => {
    if (type === "login" && id.startsWith("unknown:")) return { words: "an unknown login" }
    if (type === "subscription" || type === "session") return { words: `the ${kinds[type]}` }
    const name = nameOf(type, id)
    const kind = kinds[type] ?? type
    if (name === undefined)
      return { words: `${type === "member" || type === "login" ? "former member" : kind}`, id }
    return { words: type === "member" || type === "login" ? name : `${kind} ${name}` }
  }
  /** Who acted, in words: a person by username, a key, a token or a connection by name. */
  const actor = (kind: string, id: string | undefined) => {
    if (id === undefined) return { words: actorKinds[kind] ?? kind }
    const type = { member: "member", api_key: "api_key", scim: "scim_token", sso: "sso_connection" }[kind]
    const name = type === undefined ? undefined : nameOf(type, id)
    if (kind === "member") return name === undefined ? { words: "former member", id } : { words: name }
    return name === undefined
      ? { words: actorKinds[kind] ?? kind, id }
      : { words: `${actorKinds[kind] ?? kind} ${name}` }
  }
  /** A role's id in a change (`roleId: 2`) by the role's name; a permission's by its key. */
  const roleName = (id: number) => lists.role?.get(String(id))
  const permissionKey = (id: number) => permissions?.get(String(id))
  return { target, actor, roleName, permissionKey }
}
