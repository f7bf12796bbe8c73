import { DateTime, Duration, Effect, Result } from "effect"
import { defaultRotationDelay, revokeSigningKey, rotateSigningKey } from "../../core/index.ts"
import { coreServices } from "../core-services.ts"
import { fail, runCommand, storedSettings } from "./cli-support.ts"

export const rotateSigningKeyUsage = `roster rotate-signing-key [--after SECONDS] | --revoke KID
  Makes a new key for access tokens, published at once and signing on every instance SECONDS from
  now (360: the key set's max-age and a minute, so cached key sets know it first; 0: at once). The
  old key stays published until its last token has expired. --revoke KID removes a key at once (a
  leaked one): its tokens fail as soon as verifiers fetch the key set again.`

/** `roster rotate-signing-key`: a new signing key, or `--revoke KID` one taken away. */
export const rotateSigningKeyCommand = async (values: Record<string, string | boolean | undefined>) => {
  const revoke = values.revoke
  const after = values.after === undefined ? Duration.toSeconds(defaultRotationDelay) : Number(values.after)
  if (
    revoke === true ||
    (revoke !== undefined && values.after !== undefined) ||
    !Number.isInteger(after) ||
    after < 0
  ) {
    fail(`Usage: ${rotateSigningKeyUsage}`, 2)
  }
  const settings = await storedSettings("rotate-signing-key")
  if (settings.secretsKeys.length === 0)
    fail("ROSTER_SECRETS_KEY is not set: signing keys are kept sealed under it", 2)
  const program =
    typeof revoke === "string"
      ? Effect.map(revokeSigningKey(revoke), ({ replacedBy }) =>
          replacedBy === undefined
            ? `rotate-signing-key: ${revoke} revoked; the keys left sign`
            : `rotate-signing-key: ${revoke} revoked; no key was left, so ${replacedBy} signs from now on`
        )
      : Effect.map(rotateSigningKey(Duration.seconds(after)), ({ key, retired }) =>
          [
            `rotate-signing-key: ${key.kid} published; it signs from ${DateTime.formatIso(key.signsFrom)} on every instance`,
            ...(retired.length === 0
              ? []
              : [`rotate-signing-key: retired keys removed: ${retired.join(", ")}`])
          ].join("\n")
        )
  const done = await runCommand(program.pipe(Effect.provide(coreServices(settings)), Effect.scoped))
  if (Result.isFailure(done)) {
    fail(
      done.failure._tag === "NotFound"
        ? `No signing key is named ${String(revoke)}: the keys are listed at /.well-known/jwks.json`
        : `Not done: ${done.failure._tag}`
    )
  }
  console.log(done.success)
}
