import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { SealedSecret, SecretBox, SecretUnreadable } from "../../core/index.ts"

const info = "roster secrets v1"

interface Key {
  readonly id: string
  readonly bytes: Buffer
}

/** The AES-256 key a configured string stands for (HKDF-SHA-256), named by a digest of it. */
const keyOf = (secret: Redacted.Redacted<string>): Key => {
  const bytes = Buffer.from(hkdfSync("sha256", Redacted.value(secret), Buffer.alloc(0), info, 32))
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes }
}

const plainPrefix = "plain."

/** The text `body` seals under `key`, or undefined when it was not sealed by it as it is now. */
const opened = (key: Key, iv: string, body: string): string | undefined => {
  try {
    const bytes = Buffer.from(body, "base64url")
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
      "utf8"
    )
  } catch {
    return undefined
  }
}

/**
 * Secrets sealed with AES-256-GCM under the first of `keys` (`v1.<key id>.<iv>.<ciphertext and
 * tag>`), opened with whichever key sealed them: the operator rotates by putting a new key first,
 * running `rotate-secrets` (which seals again what an older key sealed), then removing the old ones. Without keys, secrets are kept as they
 * are (`plain.`), which only the open local mode accepts.
 */
export const secretBoxLayer = (keys: ReadonlyArray<Redacted.Redacted<string>>) =>
  Layer.sync(SecretBox, () => {
    const derived = keys.map(keyOf)
    const [sealer] = derived
    const byId = new Map(derived.map((key) => [key.id, key]))
    return SecretBox.of({
      sealing: sealer !== undefined,
      seal: (secret) =>
        Effect.sync(() => {
          if (sealer === undefined) return SealedSecret.make(`${plainPrefix}${Redacted.value(secret)}`)
          const iv = randomBytes(12)
          const cipher = createCipheriv("aes-256-gcm", sealer.bytes, iv)
          const sealed = Buffer.concat([
            cipher.update(Redacted.value(secret), "utf8"),
            cipher.final(),
            cipher.getAuthTag()
          ])
          return SealedSecret.make(
            `v1.${sealer.id}.${iv.toString("base64url")}.${sealed.toString("base64url")}`
          )
        }),
      open: (sealed) =>
        Effect.suspend(() => {
          if (sealed.startsWith(plainPrefix))
            return Effect.succeed(Redacted.make(sealed.slice(plainPrefix.length)))
          const [version, id, iv, body] = sealed.split(".")
          const key = byId.get(id ?? "")
          const plain =
            version === "v1" && key !== undefined && iv !== undefined && body !== undefined
              ? opened(key, iv, body)
              : undefined
          if (plain !== undefined) return Effect.succeed(Redacted.make(plain))
          return Effect.logWarning(
            key === undefined
              ? `A secret sealed with key ${id ?? "?"} cannot be opened: ROSTER_SECRETS_KEY no longer holds that key. Put it back, run rotate-secrets, then remove it`
              : `A secret sealed with key ${id ?? "?"} does not open with it: it was changed where it is stored`
          ).pipe(Effect.andThen(Effect.fail(new SecretUnreadable())))
        }),
      sealedUnderFirst: (sealed) =>
        sealer === undefined ? sealed.startsWith(plainPrefix) : sealed.startsWith(`v1.${sealer.id}.`)
    })
  })
