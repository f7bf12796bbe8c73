import { Effect, Layer, Option } from "effect"
import {
  DuplicateEmail,
  DuplicateUsername,
  type MemberId,
  MemberRecord,
  MemberStore
} from "../../core/index.ts"

const usernameKey = (username: string) => username.toLowerCase()

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
      Effect.sync(() =>
        lookup(idByUsername.get(usernameKey(login)) ?? idByEmail.get(login.trim().toLowerCase()))
      ),
    list: Effect.sync(() => [...byId.values()]),
    setAccountStatus: (id, active, at) =>
      Effect.sync(() =>
        lookup(id).pipe(
          Option.map((current) => {
            const next = new MemberRecord({
              ...current,
              accountActiveStatus: active,
              sessionsValidAfter: active ? current.sessionsValidAfter : at
            })
            byId.set(id, next)
            return next
          })
        )
      )
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
