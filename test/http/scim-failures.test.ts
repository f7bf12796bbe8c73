import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ProvisioningStore, StoreUnavailable } from "../../core/index.ts"
import { changedStore, masterKey, startApi } from "../support/http.ts"
import { expectScimError, scimFor, userBody } from "../support/scim.ts"

/** A provisioning store that stops answering once `down.now` is set. */
const flaky = (down: { now: boolean }) =>
  changedStore(ProvisioningStore, (store) => ({
    ...store,
    users: Effect.suspend(() => (down.now ? Effect.fail(new StoreUnavailable()) : store.users)),
    findUserByUserName: (userName: string) =>
      Effect.suspend(() =>
        down.now ? Effect.fail(new StoreUnavailable()) : store.findUserByUserName(userName)
      )
  }))

describe("SCIM when the store does not answer", () => {
  it("answers 503 with Retry-After, a SCIM error, and creates nobody", async () => {
    const down = { now: false }
    const api = await startApi({ override: flaky(down) })
    const scim = await scimFor(api)
    down.now = true
    const listed = await scim.call("GET", "/Users")
    expectScimError(listed, 503)
    expect(listed.headers.get("retry-after")).toBe("1")
    expectScimError(await scim.call("POST", "/Users", { body: userBody("down@example.com") }), 503)
    down.now = false
    const members = await api.call("GET", "/api/v1/team/members", { token: masterKey })
    expect(members.body).toEqual([])
    expect((await scim.call("POST", "/Users", { body: userBody("down@example.com") })).status).toBe(201)
  })
})
