import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { useAction } from "../use-call.ts"

/** Sign in with a password, then, for an account with TOTP, with a code or a recovery code. */
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
    </Form>
  )
}
