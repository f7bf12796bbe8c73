import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { describe, expect, it } from "vitest"
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
})
