// A problem assembled for an answer is what its class's constructor makes of the same fields:
// same prototype, tag, fields and message, encoded alike, answered alike; for every problem class.
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { HttpApiError } from "effect/http-api"
import { assembledProblem } from "../../adapters/http/assembled-problem.ts"
import { render } from "../../adapters/http/edge/guards.ts"
import * as Problem from "../../adapters/http/problems.ts"
import * as SsoProblem from "../../adapters/http/sso-problems.ts"

type ProblemClass = new (fields: object) => Error & { readonly _tag: string }

const classes = ([...Object.values(Problem), ...Object.values(SsoProblem)] as ReadonlyArray<unknown>).filter(
  (value): value is ProblemClass => typeof value === "function" && value.prototype instanceof Error
)

/** The fields a class requires besides its detail; a class that gains one fails until it is named here. */
const required: Record<string, object> = {
  ValidationFailed: { errors: [{ path: "body.name", message: "Expected a string" }] },
  RateLimited: { retryAfterSeconds: 30 },
  Busy: { retryAfterSeconds: 1 },
  DomainUnverified: { txtName: "_roster.example.com", found: ["other"] },
  PermissionInUse: { holders: { roles: 1, apiKeys: 0, scimTokens: 2 } },
  IdpIncomplete: { missing: ["idpSsoUrl", "idpCertificate"] }
}

const fieldsOf = (Class: ProblemClass) => ({
  detail: `What went wrong, for ${Class.name}`,
  ...required[Class.name]
})

const assertSame = async (
  assembled: Error & { readonly _tag: string },
  made: Error & { readonly _tag: string }
) => {
  const label = made._tag
  assert.strictEqual(Object.getPrototypeOf(assembled), Object.getPrototypeOf(made), label)
  assert.instanceOf(assembled, Error, label)
  assert.strictEqual(assembled._tag, made._tag, label)
  assert.deepStrictEqual({ ...assembled }, { ...made }, label)
  assert.strictEqual(assembled.message, made.message, label)
  const schema = made.constructor as unknown as Schema.Codec<unknown, unknown>
  assert.deepStrictEqual(
    Schema.encodeUnknownSync(schema)(assembled),
    Schema.encodeUnknownSync(schema)(made),
    label
  )
  assert.deepStrictEqual(await render(assembled as never), await render(made as never), label)
}

describe("an assembled problem", () => {
  it("is, for every problem class, what the constructor makes: fields, message, encoding, answer", async () => {
    assert.isAbove(classes.length, 45)
    for (const Class of classes) {
      const first = assembledProblem(Class, fieldsOf(Class))
      const assembled = assembledProblem(Class, fieldsOf(Class))
      const made = new Class(fieldsOf(Class))
      await assertSame(first, made)
      await assertSame(assembled, made)
      assert.notStrictEqual(assembled, first, "each request gets its own problem")
      assert.isUndefined(Object.getOwnPropertyDescriptor(assembled, "stack"), "no stack captured")
    }
  })

  it("keeps an optional field only where it is given, even when the class's first problem had it", async () => {
    // A class of its own, so that its first problem is made here, with the optional field.
    class Refused extends HttpApiError.Problem<Refused>()(
      "Refused",
      Problem.declare("refused", 403, "Refused"),
      { ...Problem.code("refused"), permission: Schema.optionalKey(Schema.String) }
    ) {}
    const withPermission = { detail: "Not yours", permission: "team.roles.write" }
    const without = { detail: "Not yours" }
    await assertSame(assembledProblem(Refused, withPermission), new Refused(withPermission))
    const plain = assembledProblem(Refused, without)
    await assertSame(plain, new Refused(without))
    assert.isFalse(Object.hasOwn(plain, "permission"))
    const again = assembledProblem(Refused, withPermission)
    assert.strictEqual(again.permission, "team.roles.write")
    assert.deepStrictEqual(
      [again.code, again.type, again.status],
      ["refused", "urn:roster:problem:refused", 403]
    )
  })
})
