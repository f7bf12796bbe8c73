import { useState } from "preact/hooks"
import { roster } from "./api.ts"
import { Layout } from "./components/layout.tsx"
import { ProblemAlert } from "./components/problem-alert.tsx"
import { AcceptInvitation } from "./pages/invitation.tsx"
import { ForgotPassword, ResetPassword, VerifyEmail } from "./pages/recovery.tsx"
import { SignIn } from "./pages/sign-in.tsx"
import { opens, pages } from "./pages.ts"
import { go, useRoute } from "./router.ts"
import { useLoad } from "./use-call.ts"

/** The pages one opens from a mailed link or before signing in. */
const publicPages: Record<
  string,
  { readonly title: string; readonly render: (token: string) => preact.JSX.Element }
> = {
  "/forgot": { title: "Forgot password", render: () => <ForgotPassword /> },
  "/reset": { title: "Choose a new password", render: (token) => <ResetPassword token={token} /> },
  "/verify": { title: "Confirm your e-mail", render: (token) => <VerifyEmail token={token} /> }
}

export const App = () => {
  const route = useRoute()
  const [round, setRound] = useState(0)
  const session = useLoad(() => roster.auth.me(), [round])
  const signedIn = () => {
    setRound(round + 1)
    go("/")
  }
  const signOut = () => roster.auth.logout().finally(() => setRound(round + 1))
  const open = publicPages[route.path]
  if (open !== undefined) {
    return (
      <Layout me={undefined} nav={[]} current={route.path} title={open.title}>
        {open.render(route.params.get("token") ?? "")}
      </Layout>
    )
  }
  if (route.path === "/accept") {
    return (
      <Layout me={undefined} nav={[]} current={route.path} title="Join an organisation">
        <AcceptInvitation token={route.params.get("token") ?? ""} onSignedIn={signedIn} />
      </Layout>
    )
  }
  const me = session.data
  if (
    session.problem?.status === 401 ||
    (me === undefined && session.problem !== undefined && route.path === "/sign-in")
  ) {
    return (
      <Layout me={undefined} nav={[]} current="/sign-in" title="Sign in">
        <SignIn onSignedIn={signedIn} />
      </Layout>
    )
  }
  if (me === undefined) {
    return (
      <Layout me={undefined} nav={[]} current={route.path} title="Roster">
        {session.problem === undefined ? <p role="status">Loading…</p> : <ProblemAlert outcome={session} />}
      </Layout>
    )
  }
  const allowed = pages.filter((page) => opens(page, me))
  const page = allowed.find((candidate) => candidate.path === route.path) ?? allowed[0]
  const signsOut = me.member === undefined ? undefined : signOut
  if (page === undefined) {
    return (
      <Layout me={me} nav={[]} current={route.path} title="Nothing to administer" onSignOut={signsOut}>
        <p>Your role has no permission that this console serves.</p>
      </Layout>
    )
  }
  return (
    <Layout me={me} nav={allowed} current={page.path} title={page.title} onSignOut={signsOut}>
      <page.Page key={page.path} me={me} />
    </Layout>
  )
}
