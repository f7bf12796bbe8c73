import { describe, expect, it } from "vitest"
import { createRosterClient } from "../../adapters/http/client.ts"
import { memberWithPermissions, startApi, type TestApi } from "../support/http.ts"

import type { ProductPermission } from "../types/client-permissions.ts"

const clientOf = <P extends string>(api: TestApi, token: string) =>
  createRosterClient<P>({
    baseUrl: "http://roster.test",
    token,
    fetch: (input, init) => api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.9" })
  })

describe("the Promise client's authorize", () => {
  it("sends the checks and resolves to the answers in the order asked", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    const roster = clientOf<ProductPermission>(api, ada.token)
    expect(await roster.authorize([{ permission: "team.read" }, { permission: 8 }])).toEqual([
      { permission: "team.read", member: ada.member.id, allowed: true, reason: "granted" },
      { permission: "audit.read", member: ada.member.id, allowed: false, reason: "not_granted" }
    ])
    await expect(roster.authorize([{ permission: "projects.delete" }])).rejects.toMatchObject({
      status: 422,
      code: "unknown_permission"
    })
  })
})
