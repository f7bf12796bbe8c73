import { roster } from "./api.ts"
import { useLoad } from "./use-call.ts"

/** Every item of a list, page after page. */
const allOf = async <T>(items: AsyncIterable<T>) => {
  const all: Array<T> = []
  for await (const item of items) all.push(item)
  return all
}

export type Role = Awaited<ReturnType<typeof roster.team.getRole>>

/** The organisation's roles, for choosing one and naming it. */
export const useRoles = () => {
  const roles = useLoad(() => allOf(roster.team.listRoles()))
  const list = roles.data ?? []
  return {
    ...roles,
    list,
    nameOf: (id: number) => list.find((role) => role.id === id)?.name ?? String(id),
    /** Choices for a select: a role id as its text. */
    options: list.map((role) => [String(role.id), role.name] as const)
  }
}
