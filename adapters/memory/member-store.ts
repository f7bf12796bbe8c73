import { Effect, Layer, Option } from "effect"
import {
  byCreation,
  DuplicateEmail,
  DuplicateUsername,
  loginKey,
  type MemberId,
  MemberRecord,
  MemberStore,
  usernameKey
} from "../../core/index.ts"

export const makeMemberStore = Effect.sync(() => {
  const byId = new Map<string, MemberRecord>()
  const idByUsername = new Map<string, MemberId>()
  const idByEmail = new Map<string, MemberId>()
  const lookup = (id: MemberId | undefined) =>
    Option.fromNullishOr(id === undefined ? undefined : byId.get(id))

  return MemberStore.of({
    insert: (record) =>
      Effect.suspend((): Effect.Effect<void, DuplicateEmail | DuplicateUsername> => {
        if (idByEmail.has(record.email)) return Effect.fail(new DuplicateEmail({ email: record.email }))
        if (idByUsername.has(usernameKey(record.username))) {
          return Effect.fail(new DuplicateUsername({ username: record.username }))
        }
        byId.set(record.id, record)
        idByEmail.set(record.email, record.id)
        idByUsername.set(usernameKey(record.username), record.id)
        return Effect.void
      }),
    findById: (id) => Effect.sync(() => lookup(id)),
    findByLogin: (login) =>
      Effect.sync(() => {
        const key = loginKey(login)
        return lookup(idByUsername.get(key) ?? idByEmail.get(key))
      }),
    list: Effect.sync(() => [...byId.values()].sort(byCreation)),
    setAccountStatus: (id, active) =>
      Effect.sync(() =>
        lookup(id).pipe(
          Option.map((current) => {
            const next = new MemberRecord({
              ...current,
              accountActiveStatus: active,
              sessionEpoch: active ? current.sessionEpoch : current.sessionEpoch + 1
            })
            byId.set(id, next)
            return next
          })
        )
      )
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
