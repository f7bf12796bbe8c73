import { roster } from "./api.ts"
import { useLoad } from "./use-call.ts"

type Deployment = Awaited<ReturnType<typeof roster.auth.signInMethods>>

let asked: Promise<Deployment> | undefined

/**
 * What this deployment can do (mail, passkeys and their origins, keeping secrets), read once: it
 * changes only with the service's settings.
 */
const deployment = () => {
  asked ??= roster.auth.signInMethods().catch((error: unknown) => {
    asked = undefined
    throw error
  })
  return asked
}

export const useDeployment = () => useLoad(deployment)

/** Why the deployment cannot do something, and what its operator sets to change that. */
export const operatorMust = {
  secrets:
    "Not available here: the operator must set ROSTER_SECRETS_KEY, which keeps TOTP secrets and single sign-on's keys encrypted.",
  passkeys:
    "Passkeys are off here: the operator must set ROSTER_WEBAUTHN_RP_ID (a domain name) and ROSTER_WEBAUTHN_ORIGINS."
} as const

/**
 * Why passkeys cannot be used from this page, if they cannot: off in the deployment, or allowed
 * from other origins only (`127.0.0.1` where they are `localhost`'s), where the browser would
 * refuse them with nothing said.
 */
export const passkeysRefusedHere = (found: Deployment | undefined) => {
  if (found === undefined) return undefined
  if (!found.passkeys) return operatorMust.passkeys
  if (found.passkeyOrigins.includes(location.origin)) return undefined
  return `Passkeys work at ${found.passkeyOrigins.join(" or ")}, not at this address: open the console there to use one.`
}
