import { createContext } from "preact"
import { useContext } from "preact/hooks"
import type { Outcome } from "../use-call.ts"

/**
 * The fields a form shows each with its own message, by name (`email`, `events`): filled as the
 * form's fields render, read by its summary at the next render (the one that shows a problem).
 */
export const ShownFields = createContext<Set<string> | undefined>(undefined)

/** Marks `name` as a field whose message its form shows beside it. */
export const useShowsOwnError = (name: string) => {
  useContext(ShownFields)?.add(name)
}

/** The field an issue's path names (`body.email`, `body.events[0]`: `email`, `events`), if any. */
const fieldOf = (path: string) => /^(?:body|query)\.([^.[]+)/u.exec(path)?.[1]

/**
 * What went wrong, in plain words, announced to screen readers: for a request the API found not
 * valid, where to look ("Check the fields marked below", each field showing its own message) and
 * the issues no field names; otherwise the problem's own detail. A session that must first set up
 * TOTP (its organisation requires it) is shown where to do so.
 */
export const ProblemAlert = ({
  outcome,
  fieldsAre = "above",
  shown
}: {
  readonly outcome: Pick<Outcome, "problem">
  /** Where the fields that show their own messages are, from this alert. */
  readonly fieldsAre?: "above" | "below"
  /** The fields shown with their own messages; every field the issues name when absent. */
  readonly shown?: ReadonlySet<string>
}) => {
  const problem = outcome.problem
  if (problem === undefined) return null
  const issues = problem.errors ?? []
  const beside = (path: string) => {
    const field = fieldOf(path)
    return field !== undefined && (shown === undefined || shown.has(field))
  }
  const marked = issues.some((issue) => beside(issue.path))
  const rest = issues.filter((issue) => !beside(issue.path)).map((issue) => issue.message)
  return (
    <div class="problem" role="alert">
      {issues.length === 0 ? (
        <p>{problem.detail}</p>
      ) : (
        <>
          {marked ? <p>Check the fields marked {fieldsAre}.</p> : null}
          {rest.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </>
      )}
      {problem.code === "mfa_required" ? (
        <p>
          <a href="#/account">Set up two-step sign-in in My account</a>
        </p>
      ) : null}
    </div>
  )
}
