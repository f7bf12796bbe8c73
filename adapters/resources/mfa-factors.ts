import { Effect, Layer, Option } from "effect"
import {
  type MemberId,
  MfaRecord,
  MfaStore,
  type SealedSecret,
  type StoreUnavailable
} from "../../core/index.ts"
import { type Full, RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/** Accounts' second factors, one per account; their changes are the account's to audit. */
export const mfaFactors = resource({
  name: "mfa_factors",
  schema: MfaRecord,
  key: "accountId",
  columns: ["accountId"],
  audit: "member",
  sealed: {
    of: (record) =>
      [record.secret, record.pending].filter((sealed): sealed is SealedSecret => sealed !== null),
    replace: (record, from, to) =>
      new MfaRecord({
        ...record,
        secret: record.secret === from ? to : record.secret,
        pending: record.pending === from ? to : record.pending
      })
  }
})

export const mfaStoreLayer = Layer.effect(
  MfaStore,
  Effect.gen(function* () {
    const factors = yield* (yield* RecordKit).open(mfaFactors)
    /** Changes the account's factor as `change` makes it, with `entry`; answers whether it changed. */
    const changed = (
      accountId: MemberId,
      change: (record: MfaRecord) => MfaRecord | undefined,
      entry?: Parameters<typeof factors.modify>[2]
    ) =>
      factors.modify({ accountId }, change, entry).pipe(Effect.map(Option.exists(({ changed }) => changed)))
    const enrol = (
      accountId: MemberId,
      pending: SealedSecret
    ): Effect.Effect<void, StoreUnavailable | Full> =>
      changed(accountId, (record) => new MfaRecord({ ...record, pending })).pipe(
        Effect.flatMap((set) =>
          set
            ? Effect.void
            : factors
                .insert(new MfaRecord({ accountId, secret: null, pending, lastStep: 0, recoveryCodes: [] }))
                // Another enrolment made the account's factor meanwhile: it is set again.
                .pipe(Effect.catchTag("Taken", () => enrol(accountId, pending)))
        )
      )
    return MfaStore.of({
      find: (accountId) => factors.find({ accountId }),
      enrol: (accountId, pending) => refusalIsDefect(enrol(accountId, pending)),
      confirm: (accountId, pending, step, recoveryCodes, entry) =>
        changed(
          accountId,
          (record) =>
            record.pending === pending
              ? new MfaRecord({ ...record, secret: pending, pending: null, lastStep: step, recoveryCodes })
              : undefined,
          entry
        ),
      takeStep: (accountId, step) =>
        changed(accountId, (record) =>
          record.secret !== null && record.lastStep < step
            ? new MfaRecord({ ...record, lastStep: step })
            : undefined
        ),
      useRecoveryCode: (accountId, digest, entry) =>
        changed(
          accountId,
          (record) =>
            record.secret !== null && record.recoveryCodes.includes(digest)
              ? new MfaRecord({
                  ...record,
                  recoveryCodes: record.recoveryCodes.filter((code) => code !== digest)
                })
              : undefined,
          entry
        ),
      replaceRecoveryCodes: (accountId, recoveryCodes, entry) =>
        changed(
          accountId,
          (record) => (record.secret !== null ? new MfaRecord({ ...record, recoveryCodes }) : undefined),
          entry
        ),
      remove: (accountId, entry) => factors.remove({ accountId }, entry).pipe(Effect.map(Option.isSome))
    })
  })
)
