import { Layer, Redacted } from "effect"
import { MongoClient } from "mongodb"
import { afterAll, describe, expect, it } from "vitest"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import {
  addRole,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi
} from "../support/http.ts"
import { mongoUri } from "../support/stores.ts"

const database = `roster_test_${crypto.randomUUID().replaceAll("-", "")}`
afterAll(async () => {
  const client = new MongoClient(mongoUri())
  await client.db(database).dropDatabase()
  await client.close()
})

/** Two instances of the service on one MongoDB database, as behind a load balancer. */
const twoInstances = async () => {
  const shared = Layer.orDie(mongoStores({ uri: Redacted.make(mongoUri()), database }))
  return [await startApi({ override: shared }), await startApi({ override: shared })] as const
}

describe("two instances on one database", () => {
  it("a member moved, deactivated or given a new password on one instance is signed out on the other", async () => {
    const [first, second] = await twoInstances()
    const other = await addRole(second, `other-${crypto.randomUUID().slice(0, 8)}`, { token: masterKey })
    for (const change of [
      (id: string) =>
        second.call("PATCH", `/api/v1/team/members/${id}`, {
          token: masterKey,
          body: { roleId: other.body.id }
        }),
      (id: string) =>
        second.call("PATCH", `/api/v1/team/members/${id}`, {
          token: masterKey,
          body: { activestatus: false }
        }),
      (id: string) =>
        second.call("POST", `/api/v1/admin/members/${id}/password`, {
          token: masterKey,
          body: { newPassword: `${password}!` }
        })
    ]) {
      const member = await memberWithPermissions(first, `m${crypto.randomUUID().slice(0, 8)}`, [1])
      expect((await first.call("GET", "/api/v1/auth/me", { token: member.token })).status).toBe(200)
      expect((await change(member.member.id)).status).toBe(200)
      expectProblem(await first.call("GET", "/api/v1/auth/me", { token: member.token }), 401, "unauthorized")
    }
  })
})
