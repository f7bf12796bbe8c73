import { useEffect, useState } from "preact/hooks"

/** Where the console is: the part of the URL after `#`, so that the server serves one page. */
export interface Route {
  readonly path: string
  readonly params: URLSearchParams
}

const routeOf = (hash: string): Route => {
  const [path = "", query = ""] = hash.replace(/^#/u, "").split("?")
  return { path: path === "" ? "/" : path, params: new URLSearchParams(query) }
}

export const useRoute = () => {
  const [route, setRoute] = useState(() => routeOf(location.hash))
  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash))
    addEventListener("hashchange", follow)
    return () => removeEventListener("hashchange", follow)
  }, [])
  return route
}

export const go = (path: string) => {
  location.hash = path
}
