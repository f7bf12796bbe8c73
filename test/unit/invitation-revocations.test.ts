import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  type InvitationId,
  InvitationStore,
  inviteMember,
  NotFound,
  newAuditEntry,
  revokeInvitation
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { failureOf, master, provideRoster, roleWith } from "../support/roster.ts"

/** The store as another request sees it: right after this use case reads the invitation, `meanwhile` runs. */
const withMeanwhile = <A, E, R, M>(
  meanwhile: (id: InvitationId) => Effect.Effect<unknown, unknown, M>,
  self: Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const store = yield* InvitationStore
    let first = true
    return yield* Effect.provideService(self, InvitationStore, {
      ...store,
      findById: (id) =>
        store.findById(id).pipe(
          Effect.tap(() => {
            if (!first) return Effect.void
            first = false
            return Effect.orDie(meanwhile(id))
          }),
          Effect.provideService(InvitationStore, store)
        )
    })
  })

const invited = Effect.gen(function* () {
  const staff = yield* roleWith("staff", [])
  return (yield* inviteMember(master, { email: "new@example.com", roleId: staff.id })).invitation
})

const revokedElsewhere = (id: InvitationId) =>
  Effect.gen(function* () {
    const entry = yield* newAuditEntry({ kind: "master" }, "invitation.revoked", { type: "invitation", id })
    yield* (yield* InvitationStore).revoke(id, entry)
  })

describe("revoking an invitation another request changed meanwhile", () => {
  it.effect("answers it as the other request left it, recording nothing more", () =>
    Effect.gen(function* () {
      const invitation = yield* invited
      const view = yield* withMeanwhile(revokedElsewhere, revokeInvitation(master, invitation.id))
      assert.strictEqual(view.id, invitation.id)
      assert.strictEqual(view.status, "revoked")
      const revocations = (yield* auditRecord).filter((entry) => entry.action === "invitation.revoked")
      assert.lengthOf(revocations, 1, "the other request's only")
    }).pipe(provideRoster())
  )

  it.effect("is NotFound when the invitation went with its organisation meanwhile", () =>
    Effect.gen(function* () {
      const invitation = yield* invited
      const gone = failureOf(
        yield* Effect.exit(
          withMeanwhile(
            () => Effect.flatMap(InvitationStore, (store) => store.removeAll),
            revokeInvitation(master, invitation.id)
          )
        )
      )
      assert.instanceOf(gone, NotFound)
      assert.deepStrictEqual(
        [(gone as NotFound).entity, (gone as NotFound).id],
        ["invitation", invitation.id]
      )
      assert.isTrue(Option.isNone(yield* (yield* InvitationStore).findById(invitation.id)))
    }).pipe(provideRoster())
  )
})
