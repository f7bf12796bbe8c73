import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { addMember, SsoRequired, updateOrganization } from "../../core/index.ts"
import { requireAddressHeld } from "../../core/steps/sso/require-address-held.ts"
import { master, memberInput, refusal, roleWith } from "../support/roster.ts"
import { acmeSso } from "../support/sso-sign-in.ts"
import { provideSso } from "../support/sso-unit.ts"

describe("one's own address under single sign-on", () => {
  it.effect("stays in the verified domains while it is required, for members, not owners", () =>
    Effect.gen(function* () {
      const { inAcme, organization } = yield* acmeSso
      const staff = yield* inAcme(roleWith("staff", ["team.read"]))
      const ivy = yield* inAcme(
        addMember(master, memberInput("ivy", staff.id, { email: "ivy@acme.example" }))
      )
      const boss = yield* inAcme(
        addMember(master, memberInput("boss", organization.ownerRoleId ?? 0, { email: "boss@acme.example" }))
      )
      assert.isUndefined(
        yield* refusal(requireAddressHeld(ivy.id, "ivy@elsewhere.example")),
        "not required yet"
      )
      yield* inAcme(updateOrganization(master, { ssoRequired: true }))
      assert.instanceOf(yield* refusal(requireAddressHeld(ivy.id, "ivy@elsewhere.example")), SsoRequired)
      assert.isUndefined(
        yield* refusal(requireAddressHeld(ivy.id, "ivy.new@acme.example")),
        "within the domain"
      )
      assert.isUndefined(
        yield* refusal(requireAddressHeld(boss.id, "boss@elsewhere.example")),
        "owners aside"
      )
    }).pipe(provideSso())
  )
})
