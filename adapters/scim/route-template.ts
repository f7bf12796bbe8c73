const collections = new Set(["Users", "Groups", "Schemas", "ResourceTypes"])

/**
 * A SCIM path as metrics label it, ids left out: `/scim/v2/Users/{id}`, `/scim/v2/Users/.search`,
 * `unmatched` for what SCIM does not serve.
 */
export const scimRouteTemplate = (path: string): string => {
  const [, , , name, id, more] = path.split("/")
  if (more !== undefined || name === undefined) return "unmatched"
  if (name === "ServiceProviderConfig" || name === ".search")
    return id === undefined ? `/scim/v2/${name}` : "unmatched"
  if (!collections.has(name)) return "unmatched"
  if (id === undefined) return `/scim/v2/${name}`
  return id === ".search" ? `/scim/v2/${name}/.search` : `/scim/v2/${name}/{id}`
}
