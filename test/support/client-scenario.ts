import { DateTime, Effect, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { makeRosterClient } from "../../adapters/http/client.ts"
import { PermissionId, RoleId } from "../../core/index.ts"

/**
 * What a caller of the typed client does against a running server, as plain data to assert on:
 * the operator adds a role and a member, the member signs in, and reads the team back.
 */
export const clientScenario = (baseUrl: string, masterKey: string, name: string) =>
  Effect.gen(function* () {
    const operator = yield* makeRosterClient({ baseUrl, token: Redacted.make(masterKey) })
    const role = yield* operator.team.addRole({ payload: { name: `${name} readers`, roleKey: name } })
    yield* operator.team.grantPermission({ payload: { roleId: role.id, permissionId: PermissionId.make(1) } })
    const added = yield* operator.team.addMember({
      payload: {
        username: name,
        email: `${name}@example.com`,
        password: Redacted.make("a long passphrase"),
        activestatus: true,
        roleId: role.id
      }
    })
    const duplicate = yield* operator.team.addRole({ payload: { name: "again", roleKey: name } }).pipe(
      Effect.flip,
      Effect.map((error) => error._tag)
    )

    const anonymous = yield* makeRosterClient({ baseUrl })
    const answer = yield* anonymous.auth.login({
      payload: { username: name, password: Redacted.make("a long passphrase") }
    })
    if (!("token" in answer)) return yield* Effect.die(new Error("Expected a session, got an MFA challenge"))
    const session = answer
    const refused = yield* anonymous.team.listMembers({ query: {} }).pipe(
      Effect.flip,
      Effect.map((error) => error._tag)
    )
    const member = yield* makeRosterClient({ baseUrl, token: session.token })
    const me = yield* member.auth.me()
    const readBack = yield* member.team.getMember({ params: { id: added.id } })
    const members = yield* member.team.listMembers({ query: { roleId: RoleId.make(role.id) } })
    return {
      role: { id: role.id, roleKey: role.roleKey, activeStatus: role.activeStatus },
      duplicate,
      refused,
      me: { principal: me.principal, username: me.member?.username, permissions: me.permissions },
      readBack: {
        id: readBack.id,
        email: readBack.email,
        createdAt: DateTime.toEpochMillis(readBack.createdAt)
      },
      added: { id: added.id, createdAt: DateTime.toEpochMillis(added.createdAt) },
      members: members.body.map((m) => m.username),
      nextPage: members.headers.link ?? null
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))

/** Run by Bun (`bun test/support/client-scenario.ts <url> <master key> <name>`): prints the outcome as JSON. */
if (import.meta.main) {
  const [baseUrl, masterKey, name] = process.argv.slice(2) as [string, string, string]
  Effect.runPromise(clientScenario(baseUrl, masterKey, name)).then(
    (outcome) => console.log(JSON.stringify(outcome)),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    }
  )
}
