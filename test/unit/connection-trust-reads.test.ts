import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  addMember,
  createSsoConnection,
  linkSsoIdentity,
  type MemberId,
  RolePermissionStore,
  SsoLoginStore,
  updateSsoConnection
} from "../../core/index.ts"
import { actorWith, master, memberInput } from "../support/roster.ts"
import { acmeSso } from "../support/sso-sign-in.ts"
import { provideSso } from "../support/sso-unit.ts"

const metadata = JSON.stringify({
  entityId: "https://idp.example",
  ssoUrl: "https://idp.example/sso",
  certificates: ["MIIcert"]
})

describe("the members a connection's trust covers", () => {
  it.effect("are read once per role, and an account linked but no member here is none of them", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole } = yield* acmeSso
      const connection = yield* inAcme(
        createSsoConnection(master, { kind: "saml", idpMetadataXml: metadata })
      )
      for (const name of ["carol", "dave"]) {
        const member = yield* inAcme(addMember(master, memberInput(name, memberRole.id)))
        yield* inAcme(
          linkSsoIdentity(master, member.id, { connectionId: connection.id, subject: `${name}-sub` })
        )
      }
      const { principal: reader } = yield* inAcme(
        actorWith("reader", ["team.read", "organization.sso.write"])
      )
      let roleReads = 0
      const swapped = yield* inAcme(
        updateSsoConnection(reader, connection.id, { idpCertificate: "CERT:mine" }).pipe(
          Effect.updateService(SsoLoginStore, (store) => ({
            ...store,
            linkedAccounts: (id) =>
              Effect.map(store.linkedAccounts(id), (accounts) => [...accounts, "gone-account" as MemberId])
          })),
          Effect.updateService(RolePermissionStore, (store) => ({
            ...store,
            findByRole: (roleId) =>
              Effect.suspend(() => {
                if (roleId === memberRole.id) roleReads++
                return store.findByRole(roleId)
              })
          }))
        )
      )
      assert.strictEqual(swapped.id, connection.id)
      assert.strictEqual(roleReads, 1, "carol's and dave's role, read once")
    }).pipe(provideSso())
  )
})
