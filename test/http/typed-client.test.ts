import { Effect, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { describe, expect, it } from "vitest"
import { makeRosterClient } from "../../adapters/http/client.ts"
import { RoleId } from "../../core/index.ts"
import { clientScenario } from "../support/client-scenario.ts"
import { masterKey, startApi } from "../support/http.ts"

describe("the typed Effect client", () => {
  it("adds a role and a member, signs in, reads back; problems arrive as typed errors", async () => {
    const api = await startApi()
    // The client's requests answered by the service's web handler, as a server would.
    const handlerFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.7" })) as typeof globalThis.fetch
    const outcome = await Effect.runPromise(
      clientScenario("http://roster.test", masterKey, "typed").pipe(
        Effect.provideService(FetchHttpClient.Fetch, handlerFetch)
      )
    )
    expect(outcome.role).toEqual({ id: expect.any(Number), roleKey: "typed", activeStatus: true })
    expect(outcome.duplicate).toBe("DuplicateRoleKey")
    expect(outcome.refused).toBe("Unauthorized")
    expect(outcome.me).toEqual({ principal: "member", username: "typed", permissions: ["team.read"] })
    expect(outcome.readBack).toEqual({
      id: outcome.added.id,
      email: "typed@example.com",
      createdAt: outcome.added.createdAt
    })
    expect(outcome.members).toEqual(["typed"])
    expect(outcome.nextPage).toBeNull()
  })

  it("invites and accepts: the typed token in, a session out; a used token is the typed InvitationInvalid", async () => {
    const api = await startApi()
    const handlerFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.8" })) as typeof globalThis.fetch
    const baseUrl = "http://roster.test"
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const operator = yield* makeRosterClient({ baseUrl, token: Redacted.make(masterKey) })
        const role = yield* operator.team.addRole({ payload: { name: "Crew", roleKey: "crew" } })
        const invitation = yield* operator.team.createInvitation({
          payload: { email: "grace@example.com", roleId: RoleId.make(role.id) }
        })
        const token = Option.getOrThrow(Option.fromNullishOr(invitation.token))
        const anonymous = yield* makeRosterClient({ baseUrl })
        const payload = { token, username: "grace", password: Redacted.make("a long passphrase") }
        const session = yield* anonymous.invitations.acceptInvitation({ payload })
        const again = yield* anonymous.invitations.acceptInvitation({ payload }).pipe(
          Effect.flip,
          Effect.map((error) => error._tag)
        )
        const listed = yield* operator.team.listInvitations({ query: {} })
        return {
          member: session.member.username,
          again,
          statuses: listed.body.map((item) => item.status)
        }
      }).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provideService(FetchHttpClient.Fetch, handlerFetch)
      )
    )
    expect(outcome).toEqual({ member: "grace", again: "InvitationInvalid", statuses: ["accepted"] })
  })
})
