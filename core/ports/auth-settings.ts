import { Context, type Duration, type Option } from "effect"
import type { TokenHash } from "../model/ids.ts"

export interface ThrottlePolicy {
  readonly window: Duration.Duration
  readonly maxFailuresPerAccount: number
  readonly maxFailuresPerClient: number
  /** Self-serve signups one client address may make per window (`signUp`); 5 when absent. */
  readonly maxSignupsPerClient?: number
  /** Mails of one purpose (reset, verification) one address may be sent per window; 3 when absent. */
  readonly maxMailsPerAddress?: number
  /** Mails of one purpose one client address may ask for per window; 20 when absent. */
  readonly maxMailsPerClient?: number
  /**
   * Sign-ins of one kind one client address may start per window, each writing a record (a single
   * sign-on started, passkey sign-in options, a single sign-on's code exchanged); 100 when absent.
   */
  readonly maxSignInStartsPerClient?: number
}

/** How callers are authenticated; chosen by the application that embeds the core. */
export class AuthSettings extends Context.Service<
  AuthSettings,
  {
    /** Hash of the operator's master key; none means open local mode. */
    readonly masterKeyHash: Option.Option<TokenHash>
    readonly sessionTtl: Duration.Duration
    readonly throttle: ThrottlePolicy
    /** Whether anyone may sign up, creating an account and an organisation of their own (`signUp`). */
    readonly signupOpen?: boolean
    /** How long an invitation may be accepted; 7 days when absent. */
    readonly invitationTtl?: Duration.Duration
    /** How long a mailed password reset link may be used; 1 hour when absent. */
    readonly resetTtl?: Duration.Duration
    /** How long a mailed verification link may be used; 24 hours when absent. */
    readonly verificationTtl?: Duration.Duration
    /** URLs besides the console's a single sign-on may return to, with its code (`ROSTER_SSO_RETURN_URLS`). */
    readonly ssoReturnUrls?: ReadonlyArray<string>
    /** How long an access token lives (`ROSTER_ACCESS_TOKEN_SECONDS`); 300 seconds when absent. */
    readonly accessTokenLifetime?: Duration.Duration
    /** The audience access tokens name (`ROSTER_TOKEN_AUDIENCE`); `roster` when absent. */
    readonly tokenAudience?: string
  }
>()("roster/core/ports/AuthSettings") {}
