import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { passkeysSupported, usePasskeyWith } from "../passkey.ts"
import { useAction } from "../use-call.ts"

/**
 * Sign in with a passkey alone, or with a password, then, for an account with a second factor,
 * with a code, a recovery code or a passkey.
 */
export const SignIn = (props: { readonly onSignedIn: () => void }) => {
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [organization, setOrganization] = useState("")
  const [challenge, setChallenge] = useState<string | undefined>(undefined)
  const [code, setCode] = useState("")
  const [recovery, setRecovery] = useState(false)
  const login = useAction(
    () =>
      roster.auth.login({
        username,
        password,
        ...(organization.trim() === "" ? {} : { organization: organization.trim() })
      }),
    (answer) => ("mfaRequired" in answer ? setChallenge(answer.challenge) : props.onSignedIn())
  )
  const verify = useAction(
    () =>
      roster.mfa.verifyMfa({
        challenge: challenge ?? "",
        ...(recovery ? { recoveryCode: code.trim() } : { code: code.trim() })
      }),
    props.onSignedIn
  )
  const withPasskey = useAction(async () => {
    const { challengeId, options } = await roster.passkeys.passkeySignInOptions({})
    return roster.passkeys.passkeySignIn({ challengeId, response: await usePasskeyWith(options) })
  }, props.onSignedIn)
  const secondPasskey = useAction(async () => {
    const options = await roster.passkeys.secondStepPasskeyOptions({ challenge: challenge ?? "" })
    return roster.mfa.verifyMfa({ challenge: challenge ?? "", passkey: await usePasskeyWith(options) })
  }, props.onSignedIn)
  const supported = passkeysSupported()
  if (challenge !== undefined) {
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
        <p>
          <button type="button" class="link" onClick={() => setRecovery(!recovery)}>
            {recovery ? "Use a code from the app instead" : "Use a recovery code instead"}
          </button>
        </p>
        {supported ? (
          <p>
            <button type="button" disabled={secondPasskey.busy} onClick={() => secondPasskey.run()}>
              Use a passkey instead
            </button>
          </p>
        ) : null}
        <ProblemAlert outcome={secondPasskey} />
      </Form>
    )
  }
  return (
    <Form label="Sign in" outcome={login} submit="Sign in" onSubmit={login.run}>
      <Field
        label="Username or e-mail"
        name="username"
        value={username}
        onValue={setUsername}
        outcome={login}
        autoComplete="username"
        required
      />
      <PasswordField name="password" value={password} onValue={setPassword} outcome={login} required />
      <Field
        label="Organisation (slug or id; optional)"
        name="organization"
        value={organization}
        onValue={setOrganization}
        outcome={login}
        hint="Only for an account in several organisations; its first is chosen otherwise."
      />
      <p>
        <a href="#/forgot">Forgot your password?</a>
      </p>
      {supported ? (
        <div class="alternative">
          <button type="button" disabled={withPasskey.busy} onClick={() => withPasskey.run()}>
            Sign in with a passkey
          </button>
          <ProblemAlert outcome={withPasskey} />
        </div>
      ) : null}
    </Form>
  )
}
