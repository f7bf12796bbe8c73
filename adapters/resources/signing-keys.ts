import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { type SealedSecret, SigningKey, SigningKeyStore } from "../../core/index.ts"
import { RecordKit, refusalIsDefect, Taken } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * The keys access tokens are signed with, by `kid`; `sequence` unique, so that of two instances
 * making the same next key, one does. The private key is sealed, and sealed again by `rotate-secrets`.
 */
export const signingKeys = resource({
  name: "signing_keys",
  schema: SigningKey,
  key: "kid",
  columns: ["kid", "sequence"],
  unique: [["sequence"]],
  sealed: {
    of: (key) => [key.privateKey],
    replace: (key, from, to: SealedSecret) =>
      key.privateKey === from ? new SigningKey({ ...key, privateKey: to }) : key
  }
})

/** How long an instance signs with the keys it read before reading them again. */
const keptFor = Duration.seconds(10)

export const signingKeyStoreLayer = Layer.effect(
  SigningKeyStore,
  Effect.gen(function* () {
    const keys = yield* (yield* RecordKit).open(signingKeys)
    const all = keys.list({}, { by: ["sequence"] })
    let kept: { readonly until: number; readonly keys: ReadonlyArray<SigningKey> } | undefined
    const forget = Effect.sync(() => {
      kept = undefined
    })
    return SigningKeyStore.of({
      all,
      recent: Effect.gen(function* () {
        const now = DateTime.toEpochMillis(yield* DateTime.now)
        if (kept !== undefined && now < kept.until) return kept.keys
        const read = yield* all
        kept = { until: now + Duration.toMillis(keptFor), keys: read }
        return read
      }),
      add: (key) =>
        refusalIsDefect(
          keys.insert(key).pipe(
            Effect.as(true),
            Effect.catchIf(
              (error): error is Taken => error instanceof Taken,
              () => Effect.succeed(false)
            )
          )
        ).pipe(Effect.tap(() => forget)),
      remove: (kid) =>
        keys.remove({ kid }).pipe(
          Effect.map(Option.isSome),
          Effect.tap(() => forget)
        )
    })
  })
)
