import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted, Schema } from "effect"
import { AddMemberInput } from "../../core/index.ts"

describe("AddMemberInput", () => {
  const valid = {
    username: "alice",
    email: "alice@example.com",
    password: "long enough password",
    activestatus: true,
    roleId: 1
  }
  const decode = Schema.decodeUnknownExit(AddMemberInput)

  it("accepts a well-formed input and wraps the password", () => {
    const exit = decode(valid)
    assert.isTrue(Exit.isSuccess(exit))
    if (Exit.isSuccess(exit)) {
      assert.isTrue(Redacted.isRedacted(exit.value.password))
      assert.strictEqual(Redacted.value(exit.value.password), valid.password)
      assert.notInclude(String(exit.value.password), valid.password)
    }
  })

  it.each([
    ["username of 3 characters", { username: "abc" }],
    ["username of 64 characters", { username: "a".repeat(64) }],
    ["username with dots, dashes and underscores", { username: "A.b_c-9" }],
    ["password of 8 characters", { password: "12345678" }],
    ["password of 256 characters", { password: "p".repeat(256) }],
    ["sub-domain e-mail", { email: "a.b+c@mail.example.co.uk" }],
    ["inactive membership", { activestatus: false }]
  ])("accepts a %s", (_, override) => {
    assert.isTrue(Exit.isSuccess(decode({ ...valid, ...override })))
  })

  it.each([
    ["a username of 2 characters", { username: "ab" }],
    ["an empty username", { username: "" }],
    ["a username of 65 characters", { username: "a".repeat(65) }],
    ["a username with a space", { username: "bad name" }],
    ["a username with a slash", { username: "bad/name" }],
    ["a username with an @", { username: "bad@name" }],
    ["a username with a non-ASCII letter", { username: "élodie" }],
    ["a numeric username", { username: 12345 }],
    ["an e-mail without @", { email: "not-an-email" }],
    ["an e-mail without a domain dot", { email: "a@example" }],
    ["an e-mail without a local part", { email: "@example.com" }],
    ["an e-mail with a space", { email: "a b@example.com" }],
    ["an e-mail with two @", { email: "a@b@example.com" }],
    ["an e-mail over 254 characters", { email: `${"a".repeat(250)}@example.com` }],
    // Lower-casing "İ" gives two characters: 142 sent, 272 stored.
    ["an e-mail over 254 characters once lower-cased", { email: `${"İ".repeat(130)}@example.com` }],
    ["an empty e-mail", { email: "" }],
    ["a password of 7 characters", { password: "1234567" }],
    ["an empty password", { password: "" }],
    ["a password of 257 characters", { password: "p".repeat(257) }],
    ["a numeric password", { password: 12345678 }],
    ["a fractional roleId", { roleId: 1.5 }],
    ["a string roleId", { roleId: "1" }],
    ["a NaN roleId", { roleId: Number.NaN }],
    ["an infinite roleId", { roleId: Number.POSITIVE_INFINITY }],
    ["a null roleId", { roleId: null }],
    ["a string activestatus", { activestatus: "true" }],
    ["a numeric activestatus", { activestatus: 1 }]
  ])("rejects %s", (_, override) => {
    assert.isTrue(Exit.isFailure(decode({ ...valid, ...override })))
  })

  it.each(["username", "email", "password", "activestatus", "roleId"])(
    "rejects an input without %s",
    (key) => {
      const input: Record<string, unknown> = { ...valid }
      delete input[key]
      assert.isTrue(Exit.isFailure(decode(input)))
    }
  )

  it.effect("fails decodeUnknownEffect with a SchemaError", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Schema.decodeUnknownEffect(AddMemberInput)({ ...valid, roleId: "x" }))
      assert.isTrue(Schema.isSchemaError(error))
    })
  )
})
