import { RosterProblem } from "./api.ts"

/** Whether this browser can make and use passkeys from the API's JSON options. */
export const passkeysSupported = () =>
  typeof PublicKeyCredential !== "undefined" && "parseRequestOptionsFromJSON" in PublicKeyCredential

/** The browser's refusal (cancelled, timed out, no authenticator) as a problem the page can show. */
const refusal = (error: unknown) =>
  error instanceof DOMException
    ? new RosterProblem(
        0,
        "passkey_cancelled",
        "The passkey was not used: cancelled, timed out, or none here."
      )
    : error

const asJson = (credential: Credential | null) => {
  if (credential === null) throw new RosterProblem(0, "passkey_cancelled", "No passkey was chosen.")
  return (credential as PublicKeyCredential).toJSON() as unknown as Record<string, unknown>
}

/** `navigator.credentials.create` from the API's creation options; the credential as JSON. */
export const makePasskey = (options: Record<string, unknown>) =>
  navigator.credentials
    .create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options as never) })
    .then(asJson, (error: unknown) => Promise.reject(refusal(error)))

/** `navigator.credentials.get` from the API's request options; the assertion as JSON. */
export const usePasskeyWith = (options: Record<string, unknown>) =>
  navigator.credentials
    .get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options as never) })
    .then(asJson, (error: unknown) => Promise.reject(refusal(error)))
