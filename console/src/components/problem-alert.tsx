import type { Outcome } from "../use-call.ts"

/**
 * The problem of the last call, for what no field shows: announced to screen readers. A session
 * that must first set up TOTP (its organisation requires it) is shown where to do so.
 */
export const ProblemAlert = ({ outcome }: { readonly outcome: Pick<Outcome, "problem"> }) =>
  outcome.problem === undefined ? null : (
    <p class="problem" role="alert">
      {outcome.problem.detail}
      {outcome.problem.code === "mfa_required" ? (
        <>
          {" "}
          <a href="#/account">Set up two-step sign-in in My account</a>
        </>
      ) : null}
    </p>
  )
