import { useCallback, useEffect, useState } from "preact/hooks"
import { problemOf, type RosterProblem } from "./api.ts"

/** Whether a problem's field error names `field` of the body or query (`body.url`, `body.events[0]`). */
const names = (path: string, field: string) =>
  [`body.${field}`, `query.${field}`].some(
    (prefix) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`)
  )

export interface Outcome {
  readonly busy: boolean
  readonly problem: RosterProblem | undefined
  /** The messages a problem gave for `field`, joined, to show beside it. */
  readonly errorFor: (field: string) => string | undefined
}

const outcomeOf = (busy: boolean, problem: RosterProblem | undefined): Outcome => ({
  busy,
  problem,
  errorFor: (field) => {
    const messages = (problem?.errors ?? []).filter((error) => names(error.path, field))
    return messages.length === 0 ? undefined : messages.map((error) => error.message).join("; ")
  }
})

/** A call made on the user's request: busy while it runs, its problem kept to be shown. */
export const useAction = <A extends Array<unknown>, R>(
  call: (...args: A) => Promise<R>,
  onDone?: (result: R) => void
) => {
  const [state, setState] = useState(() => outcomeOf(false, undefined))
  const run = async (...args: A) => {
    setState(outcomeOf(true, undefined))
    try {
      const result = await call(...args)
      setState(outcomeOf(false, undefined))
      onDone?.(result)
      return true
    } catch (error) {
      setState(outcomeOf(false, problemOf(error)))
      return false
    }
  }
  return { ...state, run }
}

/** Data loaded when the page opens and again on `reload`. */
export const useLoad = <T>(load: () => Promise<T>, keys: ReadonlyArray<unknown> = []) => {
  const [data, setData] = useState<T | undefined>(undefined)
  const [problem, setProblem] = useState<RosterProblem | undefined>(undefined)
  const [round, setRound] = useState(0)
  useEffect(() => {
    let current = true
    load().then(
      (loaded) => {
        if (!current) return
        setData(loaded)
        setProblem(undefined)
      },
      (error: unknown) => current && setProblem(problemOf(error))
    )
    return () => {
      current = false
    }
  }, [round, ...keys])
  const reload = useCallback(() => setRound((n) => n + 1), [])
  return { ...outcomeOf(false, problem), data, reload }
}
