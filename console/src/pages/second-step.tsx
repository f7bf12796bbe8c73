import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { Unavailable } from "../components/unavailable.tsx"
import { usePasskeyWith } from "../passkey.ts"
import { useAction } from "../use-call.ts"

/** A login's challenge, with the second factors its account holds. */
export interface Challenge {
  readonly token: string
  readonly methods: ReadonlyArray<"totp" | "recovery_code" | "passkey">
}

/**
 * A login's second step, offering only what the account holds: a code from its TOTP app, one of its
 * recovery codes, its passkey (said unusable here, and why, where it cannot be used from this page).
 */
export const SecondStep = (props: {
  readonly challenge: Challenge
  readonly passkeyRefused: string | undefined
  readonly onSignedIn: () => void
}) => {
  const { token, methods } = props.challenge
  const totp = methods.includes("totp")
  const recoveryCodes = methods.includes("recovery_code")
  const [recovery, setRecovery] = useState(!totp && recoveryCodes)
  const [code, setCode] = useState("")
  const verify = useAction(
    () =>
      roster.mfa.verifyMfa({
        challenge: token,
        ...(recovery ? { recoveryCode: code.trim() } : { code: code.trim() })
      }),
    props.onSignedIn
  )
  const passkey = useAction(async () => {
    const options = await roster.passkeys.secondStepPasskeyOptions({ challenge: token })
    return roster.mfa.verifyMfa({ challenge: token, passkey: await usePasskeyWith(options) })
  }, props.onSignedIn)
  if (!totp && !recoveryCodes) {
    return (
      <Form
        label="Second step"
        outcome={passkey}
        submit="Use your passkey"
        onSubmit={passkey.run}
        unavailable={props.passkeyRefused}
      >
        <p>Your account asks for a second step: your passkey.</p>
      </Form>
    )
  }
  return (
    <Form label="Second step" outcome={verify} submit="Verify" onSubmit={verify.run}>
      <p>Your account asks for a second step.</p>
      <Field
        label={recovery ? "Recovery code" : "Code from your authenticator app"}
        name={recovery ? "recoveryCode" : "code"}
        value={code}
        onValue={setCode}
        outcome={verify}
        autoComplete="one-time-code"
        inputMode={recovery ? "text" : "numeric"}
        required
      />
      {totp && recoveryCodes ? (
        <p>
          <button type="button" class="link" onClick={() => setRecovery(!recovery)}>
            {recovery ? "Use a code from the app instead" : "Use a recovery code instead"}
          </button>
        </p>
      ) : null}
      {methods.includes("passkey") ? (
        <div>
          <button
            type="button"
            disabled={passkey.busy || props.passkeyRefused !== undefined}
            onClick={() => passkey.run()}
          >
            Use a passkey instead
          </button>
          <Unavailable why={props.passkeyRefused} />
          <ProblemAlert outcome={passkey} />
        </div>
      ) : null}
    </Form>
  )
}
