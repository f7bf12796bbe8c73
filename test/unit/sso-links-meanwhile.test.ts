import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditLog,
  addMember,
  linkSsoIdentity,
  OrganizationStore,
  provisionUser,
  SsoAccountConflict,
  SsoLoginStore,
  SsoRequired,
  updateOrganization
} from "../../core/index.ts"
import { requireAddressHeld } from "../../core/steps/sso/require-address-held.ts"
import { master, memberInput, refusal } from "../support/roster.ts"
import { acmeSso, oidcCallback, outcomeOf, start } from "../support/sso-sign-in.ts"
import { provideSso } from "../support/sso-unit.ts"

/** The login store as another request left it: every identity this one links was linked first. */
const linkedMeanwhile = Effect.updateService(SsoLoginStore, (store) => ({
  ...store,
  link: () => Effect.succeed(false)
}))

const signIn = (identity: { readonly sub: string; readonly email?: string }) =>
  Effect.gen(function* () {
    return yield* outcomeOf(yield* oidcCallback(yield* start({ organization: "acme" }), identity))
  })

describe("an identity linked by another request meanwhile", () => {
  it.effect("refuses the sign-in that would have made its member just in time", () =>
    Effect.gen(function* () {
      const { oidc } = yield* acmeSso
      const refused = yield* refusal(
        signIn({ sub: "alice-sub", email: "alice@acme.example" }).pipe(linkedMeanwhile)
      )
      assert.deepStrictEqual(
        { ...(refused as object) },
        { ...new SsoAccountConflict({ linkedToAnother: true }) }
      )
      assert.isTrue(Option.isNone(yield* (yield* SsoLoginStore).findIdentity(oidc.id, "alice-sub")))
    }).pipe(provideSso())
  )

  it.effect("refuses the sign-in of a provisioned member, who stays unlinked", () =>
    Effect.gen(function* () {
      const { inAcme, oidc } = yield* acmeSso
      yield* inAcme(
        provisionUser(
          master,
          { userName: "bea", externalId: "bea-sub", email: "bea@acme.example" },
          Option.none()
        )
      )
      const refused = yield* refusal(
        signIn({ sub: "bea-sub", email: "bea@acme.example" }).pipe(linkedMeanwhile)
      )
      assert.deepStrictEqual(
        { ...(refused as object) },
        { ...new SsoAccountConflict({ linkedToAnother: true }) }
      )
      assert.isTrue(Option.isNone(yield* (yield* SsoLoginStore).findIdentity(oidc.id, "bea-sub")))
    }).pipe(provideSso())
  )

  it.effect("refuses an administrator's link, recording nothing", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole, oidc } = yield* acmeSso
      const carol = yield* inAcme(addMember(master, memberInput("carol", memberRole.id)))
      const refused = yield* inAcme(
        refusal(
          linkSsoIdentity(master, carol.id, { connectionId: oidc.id, subject: "carol-sub" }).pipe(
            linkedMeanwhile
          )
        )
      )
      assert.deepStrictEqual(
        { ...(refused as object) },
        { ...new SsoAccountConflict({ linkedToAnother: true }) }
      )
      assert.lengthOf(yield* inAcme((yield* AuditLog).page({ action: "sso.linked" }, 10)), 0)
    }).pipe(provideSso())
  )
})

describe("one's own address under single sign-on, its organisation gone meanwhile", () => {
  it.effect("is held by no organisation that can no longer be read", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole, organization } = yield* acmeSso
      const ivy = yield* inAcme(
        addMember(master, memberInput("ivy", memberRole.id, { email: "ivy@acme.example" }))
      )
      yield* inAcme(updateOrganization(master, { ssoRequired: true }))
      assert.instanceOf(yield* refusal(requireAddressHeld(ivy.id, "ivy@elsewhere.example")), SsoRequired)
      const gone = yield* refusal(
        requireAddressHeld(ivy.id, "ivy@elsewhere.example").pipe(
          Effect.updateService(OrganizationStore, (store) => ({
            ...store,
            findById: (id) => (id === organization.id ? Effect.succeedNone : store.findById(id))
          }))
        )
      )
      assert.isUndefined(gone)
    }).pipe(provideSso())
  )
})
