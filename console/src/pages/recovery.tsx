import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { useAction } from "../use-call.ts"

/** Ask for a reset link: the answer is the same whether or not an account has the address. */
export const ForgotPassword = () => {
  const [email, setEmail] = useState("")
  const [sent, setSent] = useState(false)
  const ask = useAction(
    () => roster.account.forgotPassword({ email }),
    () => setSent(true)
  )
  return sent ? (
    <p role="status">If an account has this address, a link to choose a new password is on its way.</p>
  ) : (
    <Form label="Forgot password" outcome={ask} submit="Send the link" onSubmit={ask.run}>
      <Field
        label="E-mail"
        name="email"
        type="email"
        value={email}
        onValue={setEmail}
        outcome={ask}
        autoComplete="email"
        required
      />
    </Form>
  )
}

/** Choose a new password from a mailed link (`#/reset?token=…`). */
export const ResetPassword = (props: { readonly token: string }) => {
  const [password, setPassword] = useState("")
  const [done, setDone] = useState(false)
  const reset = useAction(
    () => roster.account.resetPassword({ token: props.token, newPassword: password }),
    () => setDone(true)
  )
  return done ? (
    <p role="status">
      Your password is changed and your other sessions ended. <a href="#/sign-in">Sign in</a>
    </p>
  ) : (
    <Form label="Choose a new password" outcome={reset} submit="Change the password" onSubmit={reset.run}>
      <PasswordField
        label="New password"
        name="newPassword"
        value={password}
        onValue={setPassword}
        outcome={reset}
        fresh
        required
      />
    </Form>
  )
}

/** Confirm an e-mail address from a mailed link (`#/verify?token=…`). */
export const VerifyEmail = (props: { readonly token: string }) => {
  const [done, setDone] = useState(false)
  const verify = useAction(
    () => roster.account.verifyEmail({ token: props.token }),
    () => setDone(true)
  )
  return done ? (
    <p role="status">
      Your e-mail address is confirmed. <a href="#/">Continue</a>
    </p>
  ) : (
    <Form label="Confirm your e-mail" outcome={verify} submit="Confirm my e-mail" onSubmit={verify.run}>
      <p>Confirm that this address is yours.</p>
    </Form>
  )
}
