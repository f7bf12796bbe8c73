import { assert, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { authenticate } from "../../core/index.ts"
import { provideRoster, signedInMember } from "../support/roster.ts"

it.effect("a member signs in and is authenticated by their token", () =>
  Effect.gen(function* () {
    const { member, token } = yield* signedInMember("alice", ["team.read"])
    const principal = yield* authenticate(Option.some(token))
    assert.strictEqual(principal._tag, "Member")
    if (principal._tag === "Member") assert.strictEqual(principal.member.id, member.id)
  }).pipe(provideRoster())
)
