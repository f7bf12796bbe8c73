// Documents the hand-written session store wrote on MongoDB (one from before sessions had ids and
// proofs, one of today), read through the sessions' declaration under the kit's indexes, with the
// snapshot SessionLookup keeps on a session left alone by the kit's writes.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { hashToken } from "../../adapters/crypto/index.ts"
import { MemberStore, RoleStore, Session, SessionId, SessionLookup, SessionStore } from "../../core/index.ts"
import { assertEquals, at, memberRecord, newRole, sessionOf, valueOf } from "../support/contract.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

type Stored = { _id: string } & Record<string, unknown>

const date = (second: number) => new Date(second * 1000)
const legacyHash = hashToken("legacy")
/** What the store read a session of before ids as: its id made of its digest, seen and proved when made. */
const legacy = new Session({
  ...sessionOf("legacy", "member-ada"),
  id: SessionId.make(`ses_${legacyHash.slice(0, 32)}`),
  createdAt: at(10),
  lastSeenAt: at(10),
  amr: [],
  authTime: at(10)
})
const laptop = new Session({ ...sessionOf("laptop", "member-ada"), createdAt: at(20), userAgent: "Firefox" })

/** What the hand-written store inserted, under the indexes it made. */
const writtenByHand = (database: string) =>
  withClient(async (client) => {
    const sessions = client.db(database).collection<Stored>("sessions")
    await sessions.createIndex({ memberId: 1 }, { name: "by_member" })
    await sessions.createIndex({ organizationId: 1 }, { name: "by_organization" })
    await sessions.insertMany([
      {
        _id: legacyHash,
        memberId: "member-ada",
        organizationId: "default",
        memberEpoch: 0,
        createdAt: date(10),
        expiresAt: date(3600)
      },
      {
        _id: laptop.tokenHash,
        id: laptop.id,
        memberId: "member-ada",
        organizationId: "default",
        memberEpoch: 0,
        createdAt: date(20),
        lastSeenAt: date(0),
        expiresAt: date(3600),
        userAgent: "Firefox",
        address: null,
        mfaPending: false,
        amr: ["pwd"],
        authTime: date(0)
      }
    ])
  })

const documentOf = (database: string, tokenHash: string) =>
  withClient((client) => client.db(database).collection<Stored>("sessions").findOne({ _id: tokenHash }))

describe("the sessions' documents written by hand, on MongoDB", () => {
  it.effect("are found, listed, ended by id and changed through their declaration, snapshots kept", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        yield* writtenByHand(database)
        yield* Effect.gen(function* () {
          const sessions = yield* SessionStore
          assertEquals(valueOf(yield* sessions.find(legacyHash)), legacy)
          assertEquals(yield* sessions.listOf(laptop.memberId), [legacy, laptop])
          const staff = yield* (yield* RoleStore).insert(newRole("staff"))
          yield* (yield* MemberStore).insert(memberRecord("ada", { roleId: staff.id }))
          const lookup = yield* SessionLookup
          assert.isTrue(Option.isSome(yield* lookup.find(laptop.tokenHash)), "read in full")
          assert.isDefined((yield* documentOf(database, laptop.tokenHash))?.snapshot, "snapshot kept")
          yield* sessions.noteSeen(laptop.tokenHash, at(120))
          yield* sessions.setMfaPending(laptop.organizationId, true, {})
          assert.isDefined((yield* documentOf(database, laptop.tokenHash))?.snapshot, "the kit's writes")
          const seen = valueOf(yield* lookup.find(laptop.tokenHash)).session
          assertEquals(seen, new Session({ ...laptop, lastSeenAt: at(120), mfaPending: true }))
          assertEquals(
            valueOf(yield* sessions.revokeById(legacy.memberId, legacy.id)),
            new Session({ ...legacy, mfaPending: true })
          )
          assert.isTrue(Option.isNone(yield* sessions.find(legacyHash)))
        }).pipe(Effect.provide(storesOn(database)))

        const indexes = yield* withClient((client) =>
          client.db(database).collection("sessions").listIndexes().toArray()
        )
        const names = indexes.map((index) => String(index.name))
        assert.includeMembers(names, ["unique_id", "by_memberId_createdAt_id", "by_organizationId_memberId"])
        assert.notIncludeMembers(names, ["by_member", "by_organization"])
      })
    )
  )
})
