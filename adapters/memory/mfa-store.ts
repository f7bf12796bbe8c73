import { Effect, Layer, Option } from "effect"
import { type MemberId, MfaRecord, MfaStore } from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeMfaStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byAccount = new Map<string, MfaRecord>()
  /** Applies `change` to the account's record when `when` holds of it; answers whether it did. */
  const change = (
    accountId: MemberId,
    when: (record: MfaRecord) => boolean,
    next: (record: MfaRecord) => MfaRecord | undefined,
    entry?: Parameters<typeof trail.append>[0]
  ) =>
    Effect.sync(() => {
      const record = byAccount.get(accountId)
      if (record === undefined || !when(record)) return false
      const changed = next(record)
      if (changed === undefined) byAccount.delete(accountId)
      else byAccount.set(accountId, changed)
      trail.append(entry)
      return true
    })
  return MfaStore.of({
    find: (accountId) => Effect.sync(() => Option.fromNullishOr(byAccount.get(accountId))),
    enrol: (accountId, pending) =>
      Effect.sync(() => {
        const record = byAccount.get(accountId)
        byAccount.set(
          accountId,
          new MfaRecord(
            record === undefined
              ? { accountId, secret: null, pending, lastStep: 0, recoveryCodes: [] }
              : { ...record, pending }
          )
        )
      }),
    confirm: (accountId, pending, step, recoveryCodes, entry) =>
      change(
        accountId,
        (record) => record.pending === pending,
        (record) =>
          new MfaRecord({ ...record, secret: pending, pending: null, lastStep: step, recoveryCodes }),
        entry
      ),
    takeStep: (accountId, step) =>
      change(
        accountId,
        (record) => record.secret !== null && record.lastStep < step,
        (record) => new MfaRecord({ ...record, lastStep: step })
      ),
    useRecoveryCode: (accountId, digest, entry) =>
      change(
        accountId,
        (record) => record.secret !== null && record.recoveryCodes.includes(digest),
        (record) =>
          new MfaRecord({ ...record, recoveryCodes: record.recoveryCodes.filter((code) => code !== digest) }),
        entry
      ),
    replaceRecoveryCodes: (accountId, recoveryCodes, entry) =>
      change(
        accountId,
        (record) => record.secret !== null,
        (record) => new MfaRecord({ ...record, recoveryCodes }),
        entry
      ),
    remove: (accountId, entry) =>
      change(
        accountId,
        () => true,
        () => undefined,
        entry
      )
  })
})

export const mfaStoreLayer = Layer.effect(MfaStore, makeMfaStore)
