import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON
} from "@simplewebauthn/server"
import { Effect, Layer } from "effect"
import { PasskeyOriginRefused, PasskeyRefused, type RelyingParty, WebAuthn } from "../../core/index.ts"
import { loadedOnFirstUse } from "../runtime/loaded-on-first-use.ts"

// About 8 MB of a running process (its ASN.1 and CBOR stack), loaded with the first passkey.
const simpleWebAuthn = loadedOnFirstUse(() => import("@simplewebauthn/server"))

export interface RelyingPartyOptions extends RelyingParty {
  /** What authenticators show the passkey is for; `Roster` when absent. */
  readonly name?: string
}

/** Larger than any response an authenticator makes; a bigger one is refused unread. */
const maxResponseBytes = 64 * 1024
const timeoutMs = 300_000

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

const refused = () => new PasskeyRefused()

/** The options as the JSON the browser gets: fields the library left undefined are absent. */
const asJson = (options: object): Record<string, unknown> => JSON.parse(JSON.stringify(options))

const knownTransports: ReadonlyArray<string> = [
  "ble",
  "cable",
  "hybrid",
  "internal",
  "nfc",
  "smart-card",
  "usb"
]
const transportsOf = (listed: ReadonlyArray<unknown>) =>
  listed.filter(
    (item): item is AuthenticatorTransportFuture => typeof item === "string" && knownTransports.includes(item)
  )

const bounded = (response: Record<string, unknown>) =>
  JSON.stringify(response).length <= maxResponseBytes ? Effect.succeed(response) : Effect.fail(refused())

/** The origin of the page a response was made on, as its client data says; none when it does not parse. */
const originOf = (response: Record<string, unknown>) => {
  const clientData = (response.response as { clientDataJSON?: unknown } | undefined)?.clientDataJSON
  if (typeof clientData !== "string" || clientData.length > maxResponseBytes) return undefined
  try {
    const origin = (JSON.parse(Buffer.from(clientData, "base64url").toString("utf8")) as { origin?: unknown })
      .origin
    return typeof origin === "string" ? origin : undefined
  } catch {
    return undefined
  }
}

/** WebAuthn by `@simplewebauthn/server`: user verification required, attestation not asked for. */
export const webAuthnLayer = (party: RelyingPartyOptions) =>
  Layer.succeed(
    WebAuthn,
    WebAuthn.of({
      relyingParty: { rpId: party.rpId, origins: party.origins },
      registrationOptions: (user, exclude) =>
        Effect.promise(async () => {
          const { generateRegistrationOptions } = await simpleWebAuthn()
          const options = await generateRegistrationOptions({
            rpName: party.name ?? "Roster",
            rpID: party.rpId,
            userID: new TextEncoder().encode(user.id),
            userName: user.name,
            userDisplayName: user.displayName,
            attestationType: "none",
            timeout: timeoutMs,
            excludeCredentials: exclude.map((passkey) => ({
              id: passkey.id,
              transports: transportsOf(passkey.transports)
            })),
            authenticatorSelection: { residentKey: "preferred", userVerification: "required" }
          })
          return { options: asJson(options), challenge: options.challenge }
        }),
      authenticationOptions: (allow) =>
        Effect.promise(async () => {
          const { generateAuthenticationOptions } = await simpleWebAuthn()
          const options = await generateAuthenticationOptions({
            rpID: party.rpId,
            timeout: timeoutMs,
            userVerification: "required",
            ...(allow === undefined
              ? {}
              : {
                  allowCredentials: allow.map((passkey) => ({
                    id: passkey.id,
                    transports: transportsOf(passkey.transports)
                  }))
                })
          })
          return { options: asJson(options), challenge: options.challenge }
        }),
      verifyRegistration: (response, challenge) =>
        Effect.flatMap(bounded(response), (checked) =>
          Effect.tryPromise({
            try: async () =>
              (await simpleWebAuthn()).verifyRegistrationResponse({
                response: checked as unknown as RegistrationResponseJSON,
                expectedChallenge: challenge,
                expectedOrigin: [...party.origins],
                expectedRPID: party.rpId,
                requireUserVerification: true
              }),
            catch: refused
          })
        ).pipe(
          Effect.flatMap((verified) => {
            const info = verified.registrationInfo
            if (!verified.verified || info === undefined || !info.userVerified) return Effect.fail(refused())
            const transports = (response.response as { transports?: unknown } | undefined)?.transports
            return Effect.succeed({
              id: info.credential.id,
              publicKey: base64url(info.credential.publicKey),
              counter: info.credential.counter,
              transports: Array.isArray(transports) ? transportsOf(transports) : [],
              backedUp: info.credentialBackedUp
            })
          })
        ),
      claimsOf: (response) => {
        const origin = originOf(response)
        // Told apart from the rest before anything is looked up: it says nothing of any account.
        if (origin !== undefined && !party.origins.includes(origin))
          return Effect.fail(new PasskeyOriginRefused({ allowedOrigins: [...party.origins] }))
        const id = response.id
        const userHandle = (response.response as { userHandle?: unknown } | undefined)?.userHandle
        return typeof id === "string" &&
          id !== "" &&
          (userHandle === undefined || typeof userHandle === "string")
          ? Effect.succeed({
              credentialId: id,
              // The user handle is the account's id, as its options gave it (UTF-8).
              userHandle:
                userHandle === undefined || userHandle === ""
                  ? undefined
                  : Buffer.from(userHandle, "base64url").toString("utf8")
            })
          : Effect.fail(refused())
      },
      verifyAuthentication: (response, challenge, credential) =>
        Effect.flatMap(bounded(response), (checked) =>
          Effect.tryPromise({
            try: async () =>
              (await simpleWebAuthn()).verifyAuthenticationResponse({
                response: checked as unknown as AuthenticationResponseJSON,
                expectedChallenge: challenge,
                expectedOrigin: [...party.origins],
                expectedRPID: party.rpId,
                // The counter is the use case's to judge (a clone is recorded, not only refused).
                credential: {
                  id: credential.id,
                  publicKey: Buffer.from(credential.publicKey, "base64url"),
                  counter: 0,
                  transports: transportsOf(credential.transports)
                },
                requireUserVerification: true
              }),
            catch: refused
          })
        ).pipe(
          Effect.flatMap((verified) =>
            verified.verified && verified.authenticationInfo.userVerified
              ? Effect.succeed({
                  counter: verified.authenticationInfo.newCounter,
                  backedUp: verified.authenticationInfo.credentialBackedUp
                })
              : Effect.fail(refused())
          )
        )
    })
  )

const off = () => Effect.die(new Error("passkeys are off: every ceremony is refused before it starts"))

/** Passkeys off (`relyingParty` undefined): the use cases refuse each ceremony before asking this. */
export const passkeysOffLayer = Layer.succeed(
  WebAuthn,
  WebAuthn.of({
    relyingParty: undefined,
    registrationOptions: off,
    authenticationOptions: off,
    verifyRegistration: off,
    claimsOf: off,
    verifyAuthentication: off
  })
)
