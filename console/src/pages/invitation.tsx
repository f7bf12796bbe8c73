import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { useAction } from "../use-call.ts"

/**
 * Accept an invitation from its mailed link (`#/accept?token=…`): a new account chooses a username
 * and password; an existing one gives its password (and its code, with TOTP).
 */
export const AcceptInvitation = (props: { readonly token: string; readonly onSignedIn: () => void }) => {
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const accept = useAction(
    () =>
      roster.invitations.acceptInvitation({
        token: props.token,
        ...(username.trim() === "" ? {} : { username: username.trim() }),
        ...(password === "" ? {} : { password }),
        ...(code.trim() === "" ? {} : { code: code.trim() })
      }),
    props.onSignedIn
  )
  return (
    <Form label="Accept the invitation" outcome={accept} submit="Join" onSubmit={accept.run}>
      <p>You were invited to join an organisation on Roster.</p>
      <Field
        label="Username (new accounts)"
        name="username"
        value={username}
        onValue={setUsername}
        outcome={accept}
        autoComplete="username"
      />
      <PasswordField
        name="password"
        value={password}
        onValue={setPassword}
        outcome={accept}
        fresh
        hint="A new password for a new account; your current one if you already have an account."
      />
      <Field
        label="Code from your authenticator app (accounts with TOTP)"
        name="code"
        value={code}
        onValue={setCode}
        outcome={accept}
        autoComplete="one-time-code"
        inputMode="numeric"
      />
    </Form>
  )
}
