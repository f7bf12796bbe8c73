import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConfirmTotpInput, FactorProof, RemoveTotpInput, VerifyMfaInput } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { LoginView, ShownOnceSecret } from "../views.ts"
import { jsonBody } from "./json-body.ts"
import { Authentication, ChecksPassword, OpenWithoutMfa, ShownOnce } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

/** The client address is the server's to supply, never the caller's. */
export const VerifyMfaBody = VerifyMfaInput.mapFields(({ client: _, ...fields }) => fields)

const RecoveryCodesView = Schema.Struct({
  recoveryCodes: Schema.NullOr(Schema.Array(Schema.RedactedFromValue(Schema.String))).annotate({
    description: "Ten codes, each usable once instead of a code; shown in this answer only, null in a replay"
  })
})
const password = { password: "a long passphrase" }

/** What a change to a TOTP that must be on answers: its owner proven again (`proveFactorOwner`), or none on. */
const changeOfTotpErrors = [
  Problem.WrongPassword,
  Problem.MfaInvalid,
  Problem.NotFound,
  Problem.RateLimitedWithRetryAfter,
  Problem.BusyWithRetryAfter
] as const

/** One's own second factor: TOTP with recovery codes, and a login's second step. */
export class MfaApi extends HttpApiGroup.make("mfa")
  .add(
    HttpApiEndpoint.post("enrolTotp", "/mfa/totp", {
      payload: jsonBody(FactorProof),
      success: Schema.Struct({ secret: ShownOnceSecret, otpauthUri: ShownOnceSecret }),
      error: [
        Problem.WrongPassword,
        Problem.MfaInvalid,
        Problem.SecretsKeyRequired,
        Problem.RateLimitedWithRetryAfter,
        Problem.BusyWithRetryAfter
      ]
    })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotate(ChecksPassword, true)
      .annotate(ShownOnce, ["secret", "otpauthUri"])
      .annotateMerge(
        documented(
          "Start TOTP, proving one's password (and, to replace a factor that is on, a code of it): a new secret and its otpauth:// URI, shown once",
          { example: password }
        )
      ),
    HttpApiEndpoint.post("confirmTotp", "/mfa/totp/confirm", {
      payload: jsonBody(ConfirmTotpInput),
      success: RecoveryCodesView,
      error: [Problem.MfaInvalid, Problem.NotFound]
    })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotate(ShownOnce, ["recoveryCodes"])
      .annotateMerge(
        documented("Turn TOTP on with a code from the app; answers ten recovery codes, shown once", {
          example: { code: "123456" }
        })
      ),
    HttpApiEndpoint.get("mfaStatus", "/mfa", {
      success: Schema.Struct({ totp: Schema.Boolean, recoveryCodesLeft: Schema.Int })
    })
      .middleware(Authentication)
      .annotate(OpenWithoutMfa, true)
      .annotateMerge(documented("Tell whether one's TOTP is on, and how many recovery codes are left")),
    HttpApiEndpoint.post("regenerateRecoveryCodes", "/mfa/recovery-codes", {
      payload: jsonBody(FactorProof),
      success: RecoveryCodesView,
      error: changeOfTotpErrors
    })
      .middleware(Authentication)
      .annotate(ChecksPassword, true)
      .annotate(ShownOnce, ["recoveryCodes"])
      .annotateMerge(
        documented(
          "Replace one's recovery codes, proving one's password and a code (or a recovery code); the new ten are shown once",
          { example: { ...password, code: "123456" } }
        )
      ),
    HttpApiEndpoint.delete("removeTotp", "/mfa/totp", {
      payload: jsonBody(RemoveTotpInput),
      success: Schema.Struct({ message: Schema.String }),
      error: changeOfTotpErrors
    })
      .middleware(Authentication)
      .annotate(ChecksPassword, true)
      .annotateMerge(
        documented("Turn one's TOTP off, proving one's password and a code (or a recovery code)", {
          example: { ...password, code: "123456" }
        })
      ),
    HttpApiEndpoint.post("verifyMfa", "/mfa/verify", {
      payload: jsonBody(VerifyMfaBody),
      success: LoginView,
      // Unauthorized: a passkey used on a page of an origin this deployment does not allow.
      error: [Problem.MfaInvalid, Problem.Unauthorized, Problem.Forbidden, Problem.RateLimitedWithRetryAfter]
    }).annotateMerge(
      documented(
        "Complete a login with TOTP: the challenge and a code (or a recovery code) make the session",
        {
          example: { challenge: "rsm_Jq7T3xv0bS5nq3m9Qw2sVb8KpLc1dZr6fE4hYu0aTgM", code: "123456" },
          links: { WhoAmI: { operationId: "auth.me" } }
        }
      )
    )
  )
  .prefix("/api/v1/auth")
  .annotate(
    OpenApi.Description,
    "One's second factor: TOTP with recovery codes, and a login's second step"
  ) {}
