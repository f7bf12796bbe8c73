/**
 * Serving under a path prefix (`/roster`): the request's path with the prefix taken off, and the
 * answer's redirects and `Link` headers with it put back.
 */

/** The prefix as written once: no trailing slash; `""` for none. */
export const normalPrefix = (basePath: string | undefined) => (basePath ?? "").replace(/\/+$/u, "")

/** `url` (a path and query) without `prefix`, when it starts with it; else as it is. */
export const withoutPrefix = (prefix: string, url: string) => {
  if (prefix === "" || !(url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)))
    return url
  const rest = url.slice(prefix.length)
  return rest === "" ? "/" : rest.startsWith("?") ? `/${rest}` : rest
}

/** A header's value naming paths of the service (`Location`, `Link`), under the prefix. */
export const underPrefix = (prefix: string, value: string) =>
  prefix === "" ? value : value.replace(/(^|<)\/(?!\/)/gu, `$1${prefix}/`)

/** Whether the header names paths of the service, which a prefix must be put before. */
export const namesPaths = (name: string) => name === "location" || name === "link"
