import { Effect, Layer, Option } from "effect"
import {
  type MemberId,
  maxPasskeys,
  PasskeyChallenge,
  type PasskeyId,
  PasskeyLimit,
  PasskeyRecord,
  PasskeyStore
} from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/** Accounts' passkeys, by credential id; at most `maxPasskeys` an account; their changes the account's to audit. */
export const passkeys = resource({
  name: "passkeys",
  schema: PasskeyRecord,
  key: "id",
  columns: ["id", "accountId", "createdAt"],
  indexes: [["accountId", "createdAt"]],
  capacity: { column: "accountId", max: maxPasskeys },
  audit: "member"
})

/** WebAuthn challenges waiting, one per ceremony and owner (their key); the expired deleted as new ones come. */
export const passkeyChallenges = resource({
  name: "passkey_challenges",
  schema: PasskeyChallenge,
  key: (challenge: PasskeyChallenge) => `${challenge.ceremony}/${challenge.owner}`,
  columns: ["ceremony", "owner", "expiresAt"],
  indexes: [["expiresAt"]]
})

export const passkeyStoreLayer = Layer.effect(
  PasskeyStore,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const keys = yield* kit.open(passkeys)
    const challenges = yield* kit.open(passkeyChallenges)
    const change = (
      where: { readonly id: PasskeyId; readonly accountId?: MemberId },
      to: (record: PasskeyRecord) => PasskeyRecord | undefined
    ) => keys.modify(where, to)
    return PasskeyStore.of({
      add: (passkey, entry) =>
        keys.insert(passkey, entry).pipe(
          Effect.as(true),
          Effect.catchTags({
            Taken: () => Effect.succeed(false),
            Full: () => Effect.fail(new PasskeyLimit({ limit: maxPasskeys }))
          })
        ),
      ofAccount: (accountId) => keys.list({ accountId }, { by: ["createdAt"] }),
      find: (id) => keys.find({ id }),
      rename: (accountId, id, name) =>
        change({ id, accountId }, (record) => new PasskeyRecord({ ...record, name })).pipe(
          Effect.map(Option.map(({ after }) => after))
        ),
      remove: (accountId, id, entry) => keys.remove({ id, accountId }, entry),
      noteUse: (id, was, counter, at) =>
        change({ id }, (record) =>
          record.counter === was && !record.suspended
            ? new PasskeyRecord({ ...record, counter, lastUsedAt: at }, { disableChecks: true })
            : undefined
        ).pipe(Effect.map(Option.exists(({ changed }) => changed))),
      suspend: (id, entry) =>
        keys
          .modify(
            { id },
            (record) => new PasskeyRecord({ ...record, suspended: true }, { disableChecks: true }),
            entry
          )
          .pipe(Effect.asVoid),
      putChallenge: (challenge) =>
        challenges
          .removeAll({ expiresAt: { lte: challenge.createdAt } })
          .pipe(Effect.andThen(refusalIsDefect(challenges.put(challenge)))),
      takeChallenge: (ceremony, owner) => challenges.remove({ ceremony, owner })
    })
  })
)
