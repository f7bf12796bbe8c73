// The answers on every request's path that are encoded once per member: the same text the
// endpoint's own schema gives, whoever asks, and a new text for a changed member.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { memberJson, roleJson, whoAmIText } from "../../adapters/http/read-answers.ts"
import { toWhoAmIView, WhoAmIView } from "../../adapters/http/views.ts"
import { MemoryStores } from "../../adapters/memory/index.ts"
import {
  ApiKeyId,
  Member,
  masterPrincipal,
  Organization,
  OrganizationId,
  openLocalPrincipal,
  PermissionId,
  type Principal,
  permissionKeysOf,
  Role,
  RoleId,
  RolePermissionDetailId,
  RoleView,
  ScimTokenId,
  TokenHash,
  toMember
} from "../../core/index.ts"
import { roleView } from "../../core/steps/roles/role-view.ts"
import { at, memberRecord, viewOf } from "../support/contract.ts"

const acme = new Organization({
  id: OrganizationId.make("org-acme"),
  name: "Acme",
  slug: "acme",
  createdAt: at(0)
})
const granted = [1, 2, 8].map((id) => PermissionId.make(id))
const ada = toMember(viewOf(memberRecord("ada")))

const principals: Record<string, Principal> = {
  master: masterPrincipal,
  "open local": openLocalPrincipal,
  member: {
    _tag: "Member",
    member: ada,
    permissionIds: granted,
    sessionTokenHash: TokenHash.make("a".repeat(64)),
    organizationId: acme.id
  },
  "API key": {
    _tag: "ApiKey",
    keyId: ApiKeyId.make("key-1"),
    name: "deploys",
    organizationId: acme.id,
    permissionIds: granted
  },
  SCIM: { _tag: "Scim", tokenId: ScimTokenId.make("scim-1"), organizationId: acme.id, permissionIds: granted }
}

describe("answers encoded once per member", () => {
  for (const [name, principal] of Object.entries(principals)) {
    it(`GET /auth/me for ${name} is what WhoAmIView encodes`, () => {
      const view = toWhoAmIView(
        principal,
        acme,
        Effect.runSync(permissionKeysOf(principal).pipe(Effect.provide(MemoryStores)))
      )
      assert.deepStrictEqual(
        JSON.parse(whoAmIText(view).text),
        JSON.parse(JSON.stringify(Schema.encodeSync(WhoAmIView)(view)))
      )
    })
  }

  it("a record's face is made once, a changed record's anew", () => {
    const record = viewOf(memberRecord("grace"))
    const face = toMember(record)
    assert.strictEqual(toMember(record), face, "the same face for the same record")
    const again = toMember(viewOf(memberRecord("grace")))
    assert.notStrictEqual(again, face, "another record, even an equal one, has a face of its own")
    assert.deepStrictEqual({ ...again }, { ...face })
    const renamed = toMember(viewOf(memberRecord("grace", { username: "grace2" })))
    assert.notStrictEqual(renamed, face)
    assert.strictEqual(renamed.username, "grace2")
  })

  it.effect("a member's text is the schema's, made once, and a changed member's is its own", () =>
    Effect.sync(() => {
      const text = memberJson(ada)
      assert.deepStrictEqual(JSON.parse(text), JSON.parse(JSON.stringify(Schema.encodeSync(Member)(ada))))
      assert.strictEqual(memberJson(ada), text)
      const renamed = toMember(viewOf(memberRecord("ada", { username: "ada2" })))
      assert.strictEqual((JSON.parse(memberJson(renamed)) as { username: string }).username, "ada2")
    })
  )
})

describe("answers encoded once per role", () => {
  const role = new Role({
    id: RoleId.make(4),
    name: "Staff",
    roleKey: "staff",
    activeStatus: true,
    createdAt: at(1)
  })
  const read = { role, permissionIds: granted, recordId: RolePermissionDetailId.make(9) }

  it("a role's view and text are made once, byte for byte what RoleView encodes", () => {
    const view = roleView(read)
    assert.strictEqual(roleView(read), view, "the same view while the role and its record are those read")
    assert.strictEqual(roleJson(view), JSON.stringify(Schema.encodeSync(RoleView)(view)))
    assert.strictEqual(roleJson(view), roleJson(roleView(read)))
    const regranted = roleView({ ...read, permissionIds: [PermissionId.make(1)] })
    assert.notStrictEqual(regranted, view)
    assert.deepStrictEqual((JSON.parse(roleJson(regranted)) as { permissionIds: unknown }).permissionIds, [1])
  })
})
