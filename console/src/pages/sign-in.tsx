import { useState } from "preact/hooks"
import { ssoSignInUrl } from "../../../adapters/http/promise-client.ts"
import { roster, serviceBase } from "../api.ts"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { Unavailable } from "../components/unavailable.tsx"
import { passkeysRefusedHere, useDeployment } from "../deployment.ts"
import { passkeysSupported, usePasskeyWith } from "../passkey.ts"
import { useAction } from "../use-call.ts"
import { type Challenge, SecondStep } from "./second-step.tsx"

/** What a refused single sign-on's code means to the person who tried. */
const ssoErrors: Readonly<Record<string, string>> = {
  sso_refused: "Your e-mail's domain has no single sign-on here, or it refused you.",
  sso_account_conflict:
    "An account with your e-mail exists but is not linked to your identity provider: ask your administrator.",
  idp_unavailable: "Your identity provider did not answer; try again in a moment.",
  forbidden: "Your membership or account is not active."
}

/**
 * Sign in with a passkey alone, or with a password, then, for an account with a second factor,
 * with a code, a recovery code or a passkey.
 */
export const SignIn = (props: { readonly onSignedIn: () => void }) => {
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [organization, setOrganization] = useState("")
  const [challenge, setChallenge] = useState<Challenge | undefined>(undefined)
  const login = useAction(
    () =>
      roster.auth.login({
        username,
        password,
        ...(organization.trim() === "" ? {} : { organization: organization.trim() })
      }),
    (answer) =>
      "mfaRequired" in answer
        ? setChallenge({ token: answer.challenge, methods: answer.methods })
        : props.onSignedIn()
  )
  const withPasskey = useAction(async () => {
    const { challengeId, options } = await roster.passkeys.passkeySignInOptions({})
    return roster.passkeys.passkeySignIn({ challengeId, response: await usePasskeyWith(options) })
  }, props.onSignedIn)
  // A reset link is offered only where this deployment mails one; passkeys only where they work.
  const methods = useDeployment()
  const passkeyRefused = passkeysRefusedHere(methods.data)
  const [workEmail, setWorkEmail] = useState("")
  // A single sign-on that came back refused says why in the address (`?error=`), by its code.
  const ssoError = new URLSearchParams(location.search).get("error")
  if (challenge !== undefined) {
    return (
      <SecondStep
        challenge={challenge}
        passkeyRefused={passkeysSupported() ? passkeyRefused : "This browser cannot use passkeys."}
        onSignedIn={props.onSignedIn}
      />
    )
  }
  const withPassword = (
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
      {methods.data?.passwordReset === true ? (
        <p>
          <a href="#/forgot">Forgot your password?</a>
        </p>
      ) : null}
    </Form>
  )
  // Where passkeys are off they are not offered here; at another address than theirs, it is said.
  const passkey =
    passkeysSupported() && methods.data?.passkeys === true ? (
      <div class="alternative">
        <button
          type="button"
          disabled={withPasskey.busy || passkeyRefused !== undefined}
          onClick={() => withPasskey.run()}
        >
          Sign in with a passkey
        </button>
        <Unavailable why={passkeyRefused} />
        <ProblemAlert outcome={withPasskey} />
      </div>
    ) : null
  const sso = (
    <form
      aria-label="Single sign-on"
      class="alternative"
      onSubmit={(event) => {
        event.preventDefault()
        location.assign(ssoSignInUrl(serviceBase, { email: workEmail.trim(), returnTo: "/console/" }))
      }}
    >
      <Field
        label="Work e-mail"
        name="email"
        type="email"
        value={workEmail}
        onValue={setWorkEmail}
        outcome={login}
        autoComplete="email"
        hint="Your organisation's identity provider signs you in."
        required
      />
      {ssoError === null ? null : (
        <p class="problem" role="alert">
          {ssoErrors[ssoError] ?? "Single sign-on did not complete; try again, or ask your administrator."}
        </p>
      )}
      <button type="submit">Sign in with SSO</button>
    </form>
  )
  return (
    <>
      {withPassword}
      {passkey}
      {sso}
    </>
  )
}
