import { assembled } from "../../core/index.ts"

type ProblemClass = abstract new (fields: never) => object

/** The members every problem class fixes for all its instances (problems.ts: `declare`, `code`). */
const fixedMembers = ["code", "type", "status", "title"] as const

const fixedByClass = new WeakMap<ProblemClass, Readonly<Record<string, unknown>>>()

/**
 * A problem made for a request's answer, as its constructor makes it (the class's prototype, the
 * fields and the class's fixed members as its own properties), without what the constructor spends
 * on it: a parse of fields Roster wrote itself, and the stack its `Error` base captures, which
 * nothing reads (a problem is an answer to the client, not a fault; its `message` is its detail,
 * from the prototype). The two cost a 409 about 3.5 µs of its ~50 in process. The constructor makes
 * a class's first problem, from which its fixed members are taken.
 * `test/unit/assembled-problem.test.ts` holds each problem equal to the constructor's, answer and all.
 */
export const assembledProblem = <C extends ProblemClass>(
  Class: C,
  fields: ConstructorParameters<C>[0]
): InstanceType<C> => {
  const fixed = fixedByClass.get(Class)
  if (fixed !== undefined) return Object.assign(assembled(Class, fields), fixed)
  const made = new (Class as unknown as new (fields: ConstructorParameters<C>[0]) => InstanceType<C>)(fields)
  const members = made as Record<string, unknown>
  fixedByClass.set(Class, Object.fromEntries(fixedMembers.map((key) => [key, members[key]])))
  return made
}
