import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  Passkey,
  PasskeyId,
  PasskeyOptionsInput,
  PasskeySignInInput,
  RegisterPasskeyInput,
  RenamePasskeyInput
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import * as SsoProblem from "../sso-problems.ts"
import { LoginView } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, ChecksPassword, OpenWithoutMfa } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** WebAuthn's own JSON, passed to `navigator.credentials` as it is (see the WebAuthn Level 3 spec). */
const CreationOptions = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description:
    "PublicKeyCredentialCreationOptionsJSON: for navigator.credentials.create (parseCreationOptionsFromJSON)"
})
const RequestOptions = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description:
    "PublicKeyCredentialRequestOptionsJSON: for navigator.credentials.get (parseRequestOptionsFromJSON)"
})
const PasswordProof = Schema.Struct({
  password: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256)))
})
const passkeyId = "KEbWNCc7NgaYnUyrNeFGX9_3Y-8oIWBsXSq9Ky3lhvE"
const password = { password: "a long passphrase" }
const assertion = {
  id: passkeyId,
  rawId: passkeyId,
  type: "public-key",
  response: {
    clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
    authenticatorData: "SZYN5Y",
    signature: "MEUCIQ"
  },
  clientExtensionResults: {}
}

/** One's passkeys (WebAuthn): adding, listing, renaming and removing them, and signing in with one. */
export class PasskeysApi extends HttpApiGroup.make("passkeys")
  .add(
    HttpApiEndpoint.post("passkeyOptions", "/passkeys/options", {
      payload: jsonBody(PasskeyOptionsInput),
      success: CreationOptions,
      error: [
        Problem.WrongPassword,
        Problem.MfaInvalid,
        Problem.PasskeyLimit,
        Problem.PasskeysUnavailable,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented(
          "Options to add a passkey, proving one's password and, while TOTP is on, a code of it (or within five minutes of signing in); user verification required",
          { example: password }
        )
      ),
    HttpApiEndpoint.post("addPasskey", "/passkeys", {
      payload: jsonBody(RegisterPasskeyInput),
      success: Passkey,
      error: [Problem.PasskeyLimit, Problem.PasskeysUnavailable]
    })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotateMerge(
        documented(
          "Add a passkey from the browser's answer to the latest options (used once, within five minutes)",
          {
            example: {
              name: "Laptop",
              response: { id: passkeyId, rawId: passkeyId, type: "public-key", response: {} }
            }
          }
        )
      ),
    HttpApiEndpoint.get("listPasskeys", "/passkeys", { success: Schema.Array(Passkey) })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotateMerge(documented("List one's passkeys, oldest first: names and dates, never a key")),
    HttpApiEndpoint.patch("renamePasskey", "/passkeys/:id", {
      params: { id: PasskeyId },
      payload: jsonBody(RenamePasskeyInput),
      success: Passkey,
      error: [Problem.NotFound]
    })
      .middleware(Authentication)
      .annotateMerge(
        documented("Rename one of one's passkeys", { params: { id: passkeyId }, example: { name: "Phone" } })
      ),
    HttpApiEndpoint.delete("removePasskey", "/passkeys/:id", {
      params: { id: PasskeyId },
      payload: jsonBody(PasswordProof),
      success: Passkey,
      error: [
        Problem.WrongPassword,
        Problem.NotFound,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    })
      .middleware(Authentication)
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented("Remove one of one's passkeys, proving one's password", {
          params: { id: passkeyId },
          example: password
        })
      ),
    HttpApiEndpoint.post("passkeySignInOptions", "/passkeys/login/options", {
      payload: jsonBody(Schema.Struct({})),
      success: Schema.Struct({
        challengeId: Schema.String.annotate({
          description: "To send back with the answer, within five minutes"
        }),
        options: RequestOptions
      }),
      error: [Problem.PasskeysUnavailable, Problem.RateLimitedWithRetryAfter]
    }).annotateMerge(
      documented("Options to sign in with a passkey, no username asked (discoverable credentials)", {
        example: {}
      })
    ),
    HttpApiEndpoint.post("passkeySignIn", "/passkeys/login", {
      payload: jsonBody(PasskeySignInInput),
      success: LoginView,
      error: [
        Problem.Unauthorized,
        Problem.PasskeysUnavailable,
        SsoProblem.SsoRequired,
        Problem.RateLimitedWithRetryAfter
      ]
    }).annotateMerge(
      documented("Sign in with a passkey: the browser's answer to the sign-in options; two factors in one", {
        example: { challengeId: "rsm_Jq7T3xv0bS5nq3m9Qw2sVb8KpLc1dZr6fE4hYu0aTgM", response: assertion },
        links: { WhoAmI: { operationId: "auth.me" } }
      })
    ),
    HttpApiEndpoint.post("secondStepPasskeyOptions", "/mfa/passkey/options", {
      payload: jsonBody(
        Schema.Struct({
          challenge: Schema.RedactedFromValue(Schema.String.check(Schema.isBetweenLength(1, 256)))
        })
      ),
      success: RequestOptions,
      error: [Problem.MfaInvalid, Problem.PasskeysUnavailable]
    }).annotateMerge(
      documented(
        "Options to answer a login's challenge with one of the account's passkeys, for POST /auth/mfa/verify",
        {
          example: { challenge: "rsm_Jq7T3xv0bS5nq3m9Qw2sVb8KpLc1dZr6fE4hYu0aTgM" }
        }
      )
    )
  )
  .prefix("/api/v1/auth")
  .annotate(OpenApi.Description, "One's passkeys, and signing in with one") {}
