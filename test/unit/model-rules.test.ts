import { assert, describe, it } from "@effect/vitest"
import { DateTime, Exit, Result, Schema, SchemaIssue } from "effect"
import {
  AlreadySubscribed,
  AuditEntry,
  byCreation,
  canAct,
  DuplicateEmail,
  DuplicateRoleKey,
  DuplicateUsername,
  defaultOrganizationId,
  EditConflict,
  Email,
  Forbidden,
  HashingBusy,
  InvalidCredentials,
  isDisplayable,
  isOlderThan,
  loginKey,
  Member,
  MemberId,
  MemberRecord,
  NotFound,
  normalizeEmail,
  Password,
  Permission,
  PlanMismatch,
  PriceMismatch,
  Principal,
  RateLimited,
  RoleId,
  RoleInUse,
  RoleKey,
  RoleName,
  RolePermissionDetail,
  RoleView,
  StoreUnavailable,
  Unauthenticated,
  UnknownPermission,
  UnknownPlan,
  UnknownRole,
  Username,
  usernameKey,
  WrongPassword
} from "../../core/index.ts"

/** What a client is told of `value` against `schema`: the messages of the problem's `errors`. */
const messagesOf = <S extends Schema.Codec<unknown, unknown>>(schema: S, value: unknown) => {
  const result = Schema.decodeUnknownResult(schema)(value, { errors: "all" })
  if (Result.isSuccess(result)) return []
  return SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues.map(
    (issue) => issue.message
  )
}

describe("what a client is told of a value it sent", () => {
  it("names the rule each field breaks", () => {
    assert.deepStrictEqual(messagesOf(Username, "a b"), [
      "Expected 3 to 64 ASCII characters: letters A-Z and a-z, digits, '.', '_' or '-'"
    ])
    assert.deepStrictEqual(messagesOf(Email, "no-at-sign"), ["Expected an e-mail address"])
    assert.deepStrictEqual(messagesOf(Email, `${"a".repeat(243)}@example.com`), [
      "Expected at most 254 characters"
    ])
    assert.deepStrictEqual(messagesOf(Password, "short"), ["Expected between 8 and 256 characters"])
    assert.deepStrictEqual(messagesOf(RoleKey, "Billing Admin"), [
      "Expected a lower-case slug such as 'billing-admin'"
    ])
    assert.deepStrictEqual(messagesOf(Schema.String.check(isDisplayable), "a\u202Eb"), [
      "Expected no control, format (zero-width, bidirectional) or private-use characters, nor lone surrogates"
    ])
  })

  it("refuses an e-mail address with anything after its domain", () => {
    for (const email of ["ada@example.com trailing", "ada@example.com@", "ada@example.com."]) {
      assert.deepStrictEqual(messagesOf(Email, email), ["Expected an e-mail address"], email)
    }
  })

  it("refuses text with a lone half of a surrogate pair, wherever it stands", () => {
    const displayable = Schema.is(Schema.String.check(isDisplayable))
    assert.isTrue(displayable("smile \uD83D\uDE00"), "a whole pair")
    for (const broken of ["\uD800", "a\uD800b", "\uDC00", "a\uDC00", "\uDC00\uD800"]) {
      assert.isFalse(displayable(broken), JSON.stringify(broken))
    }
  })

  it("takes an e-mail of exactly 254 characters", () => {
    const longest = `${"a".repeat(242)}@example.com`
    assert.lengthOf(longest, 254)
    assert.deepStrictEqual(messagesOf(Email, longest), [])
  })
})

describe("the published JSON Schema", () => {
  const jsonSchemaOf = (schema: Schema.Top) =>
    Schema.toJsonSchemaDocument(schema).schema as { minLength?: number; maxLength?: number; pattern?: string }

  it("states the password's bounds in characters", () => {
    const published = jsonSchemaOf(Password)
    assert.strictEqual(published.minLength, 8)
    assert.strictEqual(published.maxLength, 256)
  })

  it("keeps the constraints of text decoded into NFC: role names and e-mails", () => {
    const name = jsonSchemaOf(RoleName) as { minLength?: number; maxLength?: number; pattern?: string }
    assert.strictEqual(name.minLength, 1)
    assert.strictEqual(name.maxLength, 100)
    assert.isString(name.pattern)
    assert.isString(jsonSchemaOf(Email).pattern ?? (jsonSchemaOf(Email) as { allOf?: unknown }).allOf)
  })

  it("refuses exactly the characters the displayable-text check refuses, in the whole BMP", () => {
    const pattern = new RegExp(jsonSchemaOf(Schema.String.check(isDisplayable)).pattern ?? "", "u")
    const displayable = Schema.is(Schema.String.check(isDisplayable))
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const text = `a${String.fromCharCode(code)}b`
      assert.strictEqual(pattern.test(text), displayable(text), code.toString(16))
    }
  })
})

describe("stored text", () => {
  const decodeEmail = Schema.decodeUnknownExit(Email)
  const decodeRoleName = Schema.decodeUnknownExit(RoleName)

  it("refuses format and private-use characters: zero-width, bidi, soft hyphen, tags", () => {
    for (const sample of [
      "\u200b",
      "\u200d",
      "\u2060",
      "\ufeff",
      "\u00ad",
      "\u202e",
      "\ue000",
      "\u{e0041}",
      "\u{f0000}"
    ]) {
      assert.isTrue(Exit.isFailure(decodeEmail(`zw${sample}.x@example.com`)), JSON.stringify(sample))
      assert.isTrue(Exit.isFailure(decodeRoleName(`Ops${sample}`)), JSON.stringify(sample))
    }
    assert.isTrue(Exit.isSuccess(decodeRoleName("Équipe 🚀")))
  })

  it("is decoded into NFC, so canonically equal spellings are one", () => {
    const decomposed = "E\u0301quipe"
    assert.deepStrictEqual(decodeRoleName(decomposed), Exit.succeed("\u00c9quipe"))
    const email = decodeEmail("rene\u0301@example.com")
    assert.deepStrictEqual(email, Exit.succeed("ren\u00e9@example.com"))
  })

  it("stores an e-mail's domain in its ASCII (IDNA) form, and finds it by either spelling", () => {
    assert.strictEqual(normalizeEmail("Ada@Bücher.Example"), "ada@xn--bcher-kva.example")
    assert.strictEqual(loginKey(" ada@BÜCHER.example "), "ada@xn--bcher-kva.example")
    assert.strictEqual(normalizeEmail("ada@xn--bcher-kva.example"), "ada@xn--bcher-kva.example")
    // What IDNA cannot convert is kept as given, never cut short at a character a URL treats apart.
    assert.strictEqual(normalizeEmail("ada@bü#cher.example"), "ada@bü#cher.example")
  })
})

describe("published schemas", () => {
  it("name the records the API returns, as client generators will name their types", () => {
    const nameOf = (schema: Schema.Top) => Schema.toJsonSchemaDocument(schema).schema.$ref
    assert.strictEqual(nameOf(Member), "#/$defs/roster~1MemberEncoded")
    assert.strictEqual(nameOf(RoleView), "#/$defs/roster~1RoleEncoded")
    assert.strictEqual(nameOf(Permission), "#/$defs/roster~1PermissionEncoded")
    assert.strictEqual(nameOf(RolePermissionDetail), "#/$defs/roster~1RolePermissionDetailEncoded")
    assert.strictEqual(nameOf(AuditEntry), "#/$defs/roster~1AuditEntryEncoded")
  })

  it("decode each kind of principal an embedding service may pass on, and no other", () => {
    const decode = Schema.decodeUnknownExit(Principal)
    const member = {
      id: "m-1",
      username: "ada",
      email: "ada@example.com",
      emailVerified: false,
      activestatus: true
    }
    const principals = [
      { _tag: "Master" },
      { _tag: "OpenLocal" },
      {
        _tag: "Member",
        member: { ...member, accountActiveStatus: true, roleId: 1, createdAt: DateTime.makeUnsafe(0) },
        permissionIds: [1],
        sessionTokenHash: "a".repeat(64),
        organizationId: "default"
      }
    ]
    for (const principal of principals) {
      const decoded = decode(principal)
      assert.isTrue(Exit.isSuccess(decoded) && decoded.value._tag === principal._tag, principal._tag)
    }
    assert.isTrue(Exit.isFailure(decode({ _tag: "Member", member, permissionIds: [1] })))
    assert.isTrue(Exit.isFailure(decode({ _tag: "Anonymous" })))
  })
})

describe("domain errors", () => {
  it("are tagged with their class's name, which is what callers catch them by", () => {
    const errors = [
      new DuplicateEmail({ email: "ada@example.com" }),
      new DuplicateUsername({ username: "ada" }),
      new DuplicateRoleKey({ roleKey: "staff" }),
      new UnknownRole({ roleId: RoleId.make(1) }),
      new UnknownPermission({ permission: 99 }),
      new UnknownPlan({ planId: "gold" }),
      new PlanMismatch({ planId: "team", planName: "Gold" }),
      new PriceMismatch({ planId: "team", price: 1 }),
      new NotFound({ entity: "member", id: "m-1" }),
      new AlreadySubscribed({ planId: "team" }),
      new InvalidCredentials(),
      new Unauthenticated({ reason: "missing" }),
      new Forbidden({ reason: "inactive" }),
      new EditConflict({ entity: "member", id: "m-1" }),
      new RoleInUse({ roleId: RoleId.make(1) }),
      new WrongPassword(),
      new RateLimited({ retryAfterSeconds: 1 }),
      new HashingBusy({ retryAfterSeconds: 1 }),
      new StoreUnavailable()
    ]
    for (const error of errors) assert.strictEqual(error._tag, error.constructor.name)
  })
})

describe("login keys", () => {
  it("a username, in any case or with spaces around it, finds the same account", () => {
    for (const spelling of ["Ada.L", "ada.l", "ADA.L", " ada.l "]) {
      assert.strictEqual(loginKey(spelling), usernameKey("ada.l"), spelling)
    }
    assert.strictEqual(usernameKey("Ada.L"), usernameKey("ada.l"))
  })

  it("an e-mail is compared as stored", () => {
    assert.strictEqual(loginKey(" Ada@Example.COM "), normalizeEmail("ada@example.com"))
    assert.strictEqual(normalizeEmail(" Ada@Example.COM "), "ada@example.com")
  })
})

describe("byCreation", () => {
  const created = (id: string, millis: number) => ({ id, createdAt: DateTime.makeUnsafe(millis) })

  it("orders oldest first, and records created in the same instant by id", () => {
    assert.isBelow(byCreation(created("b", 1), created("a", 2)), 0)
    assert.isAbove(byCreation(created("a", 2), created("b", 1)), 0)
    assert.isBelow(byCreation(created("a", 1), created("b", 1)), 0)
    assert.isAbove(byCreation(created("b", 1), created("a", 1)), 0)
    assert.strictEqual(byCreation(created("a", 1), created("a", 1)), 0)
    assert.isTrue(isOlderThan(created("a", 1), created("b", 1)))
    assert.isFalse(isOlderThan(created("a", 1), created("a", 1)))
  })
})

describe("canAct", () => {
  const member = new MemberRecord({
    id: MemberId.make("m-1"),
    organizationId: defaultOrganizationId,
    username: "ada",
    email: "ada@example.com",
    emailVerified: false,
    activestatus: true,
    accountActiveStatus: true,
    sessionEpoch: 0,
    roleId: RoleId.make(1),
    createdAt: DateTime.makeUnsafe(0)
  })

  it("refuses a member whose role is gone", () => {
    assert.isFalse(canAct(member, undefined))
  })
})
