import { roster } from "../api.ts"
import { Table } from "../components/controls.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useLoad } from "../use-call.ts"

type CatalogEntry = Awaited<ReturnType<typeof roster.team.listPermissions>>[number]

const columns = ["Key", "Description", "Kind", "Id"]

// The rows as an array, not a component, so that the table sees when there are none.
const rowsOf = (entries: ReadonlyArray<CatalogEntry>) =>
  entries.map((permission) => (
    <tr key={permission.id}>
      <td>
        <code>{permission.key}</code>
      </td>
      <td>{permission.description}</td>
      <td>{permission.kind}</td>
      <td>{permission.id}</td>
    </tr>
  ))

/**
 * The catalog roles grant from: the permissions the product declared, which guard the product (it
 * asks Roster about them with POST /authorize), and Roster's own, which guard Roster. The operator
 * declares the product's, so the console only lists them.
 */
export const Permissions = () => {
  const catalog = useLoad(() => roster.team.listPermissions())
  const entries = catalog.data
  if (entries === undefined)
    return catalog.problem === undefined ? <p role="status">Loading…</p> : <ProblemAlert outcome={catalog} />
  return (
    <>
      <Table
        caption="The product's permissions"
        columns={columns}
        empty="none declared yet. The operator declares them (PUT /api/v1/permissions/{key}, or npm run roster -- permissions sync FILE); roles then grant them here like Roster's."
      >
        {rowsOf(entries.filter((permission) => permission.kind === "product"))}
      </Table>
      <Table caption="Roster's permissions" columns={columns} empty="none.">
        {rowsOf(entries.filter((permission) => permission.kind === "roster"))}
      </Table>
    </>
  )
}
