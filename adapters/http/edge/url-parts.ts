/** A path without its query or fragment. */
export const pathOf = (url: string) => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/** The path of an absolute URL, without parsing it. */
export const pathOfUrl = (url: string) => {
  const authority = url.indexOf("//")
  const slash = url.indexOf("/", authority === -1 ? 0 : authority + 2)
  return slash === -1 ? "/" : pathOf(url.slice(slash))
}

/** The origin of an absolute URL (`scheme://authority`), lower-cased, without parsing it. */
export const originOfUrl = (url: string) => {
  const authority = url.indexOf("//")
  if (authority === -1) return undefined
  const end = url.slice(authority + 2).search(/[/?#]/)
  return (end === -1 ? url : url.slice(0, authority + 2 + end)).toLowerCase()
}

/** The path and query of an absolute URL, as the router reads a request's (`removeHost`). */
export const targetOfUrl = (url: string) => {
  const authority = url.indexOf("//")
  const slash = url.indexOf("/", authority === -1 ? 0 : authority + 2)
  return slash === -1 ? "/" : url.slice(slash)
}
