import { Effect, Option } from "effect"
import { SecretsKeyRequired } from "../../model/errors.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { SecretBox } from "../../ports/secret-box.ts"

/** Refuses to keep a secret in clear where the deployment has a master key (secure mode). */
export const requireSealing = Effect.gen(function* () {
  if (!(yield* SecretBox).sealing && Option.isSome((yield* AuthSettings).masterKeyHash)) {
    return yield* new SecretsKeyRequired()
  }
})
