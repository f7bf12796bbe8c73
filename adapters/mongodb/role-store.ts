import { DateTime, Effect, Layer, Schema } from "effect"
import { DuplicateRoleKey, Role, RoleId, RoleStore } from "../../core/index.ts"
import { nextInSequence } from "./counters.ts"
import { MongoDatabase } from "./database.ts"
import { attempt, decodeDocument, optionally, query } from "./driver.ts"

export interface RoleDocument {
  _id: number
  name: string
  roleKey: string
  activeStatus: boolean
  createdAt: Date
}

const decode = decodeDocument(
  Schema.Struct({
    _id: RoleId,
    name: Schema.String,
    roleKey: Schema.String,
    activeStatus: Schema.Boolean,
    createdAt: Schema.DateTimeUtcFromDate
  })
)

const toRole = (document: unknown) =>
  Effect.map(decode(document), ({ _id, ...fields }) => new Role({ id: _id, ...fields }))

export const makeRoleStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const roles = db.collection<RoleDocument>("roles")
  return RoleStore.of({
    insert: (role) =>
      Effect.gen(function* () {
        const id = RoleId.make(yield* nextInSequence(db, "roles"))
        // The allocated id, whatever `id` a caller's object may carry along.
        const created = new Role({ ...role, id })
        yield* attempt(() =>
          roles.insertOne({
            _id: id,
            name: role.name,
            roleKey: role.roleKey,
            activeStatus: role.activeStatus,
            createdAt: DateTime.toDateUtc(role.createdAt)
          })
        ).pipe(
          Effect.catchTag("DuplicateKey", () => Effect.fail(new DuplicateRoleKey({ roleKey: role.roleKey })))
        )
        return created
      }),
    findById: (id) => query(() => roles.findOne({ _id: id })).pipe(Effect.flatMap(optionally(toRole))),
    list: query(() => roles.find().sort({ _id: 1 }).toArray()).pipe(
      Effect.flatMap((documents) => Effect.forEach(documents, toRole))
    )
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
