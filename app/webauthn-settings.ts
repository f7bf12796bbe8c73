import { isIP } from "node:net"
import { Config, Effect, Option } from "effect"
import { readEnvironment, refuse } from "./startup-error.ts"

const environment = Config.all({
  rpId: Config.String("ROSTER_WEBAUTHN_RP_ID").pipe(Config.option),
  origins: Config.String("ROSTER_WEBAUTHN_ORIGINS").pipe(Config.option)
})

/** Passkeys' relying party: the domain they are bound to and the origins whose pages may use them. */
export interface WebAuthnSettings {
  readonly rpId: string
  readonly origins: ReadonlyArray<string>
}

/** Passkeys off, and why, in the operator's words: what to set to turn them on. */
export interface PasskeysOff {
  readonly off: string
}

const isOrigin = (text: string) => {
  try {
    const url = new URL(text)
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === text
  } catch {
    return false
  }
}

/** A domain name (an RP ID is never an IP address, nor has a port or a scheme). */
const isRpId = (text: string) =>
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/u.test(text)

const originsOf = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")

/**
 * `ROSTER_WEBAUTHN_RP_ID` (the host of `ROSTER_PUBLIC_URL` when unset, else `localhost`) and
 * `ROSTER_WEBAUTHN_ORIGINS` (comma-separated; the public URL's origin when unset, else
 * `http://localhost:PORT`). Each origin's host must be the RP ID or a subdomain of it. Only what the
 * operator set refuses the start: a public URL on an address (`http://10.0.0.5`), which no passkey
 * can be bound to, turns passkeys off, and says what would turn them on.
 */
export const loadWebAuthnSettings = (publicOrigin: Option.Option<string>, port: number) =>
  Effect.gen(function* () {
    const env = yield* readEnvironment(environment)
    const origins = Option.map(env.origins, originsOf)
    if (Option.isSome(origins) && (origins.value.length === 0 || !origins.value.every(isOrigin))) {
      return yield* refuse(
        "ROSTER_WEBAUTHN_ORIGINS must be origins, comma-separated (e.g. https://app.example.com)"
      )
    }
    if (Option.isSome(env.rpId) && !isRpId(env.rpId.value.toLowerCase())) {
      return yield* refuse(
        "ROSTER_WEBAUTHN_RP_ID must be a domain name (e.g. example.com), not an address or a URL"
      )
    }
    const publicHost = Option.map(publicOrigin, (origin) => new URL(origin).hostname)
    const rpId = Option.getOrElse(
      Option.orElse(env.rpId, () => publicHost),
      () => "localhost"
    ).toLowerCase()
    if (!isRpId(rpId)) {
      const off: PasskeysOff = {
        off: `ROSTER_PUBLIC_URL's host (${rpId}) is ${isIP(rpId.replace(/^\[|\]$/gu, "")) === 0 ? "not a domain name" : "an IP address"}, and passkeys are bound to a domain name: set ROSTER_WEBAUTHN_RP_ID (and ROSTER_WEBAUTHN_ORIGINS) to turn them on`
      }
      return off
    }
    const allowed = Option.getOrElse(origins, () => [
      Option.getOrElse(publicOrigin, () => `http://localhost:${port}`)
    ])
    const bound = (origin: string) => {
      const host = new URL(origin).hostname
      return host === rpId || host.endsWith(`.${rpId}`)
    }
    if (!allowed.every(bound)) {
      return yield* refuse(
        `ROSTER_WEBAUTHN_ORIGINS must be origins on ${rpId} or its subdomains, comma-separated (e.g. https://app.${rpId === "localhost" ? "example.com" : rpId})`
      )
    }
    const settings: WebAuthnSettings = { rpId, origins: allowed }
    return settings
  })
